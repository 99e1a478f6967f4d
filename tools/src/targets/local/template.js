// Proxy configs are template files (templates/), filled with {{name}} values: the
// generated file is what a user reads when a proxy rejects it, so keep it plain.
import { readFileSync } from 'node:fs';

const DIR = new URL('./templates/', import.meta.url);
const cache = new Map();

export function renderTemplate(name, values) {
  if (!cache.has(name)) cache.set(name, readFileSync(new URL(name, DIR), 'utf8'));
  return cache.get(name).replace(/\{\{(\w+)\}\}/g, (_, key) => {
    if (!(key in values)) throw new Error(`template ${name}: no value for {{${key}}}`);
    return String(values[key]);
  });
}
