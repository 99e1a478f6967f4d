// Template files with {{name}} placeholders (proxy configs, gnuplot scripts, the PR
// comment). A missing value is an error, never an empty string.
import { readFileSync } from 'node:fs';

/** A renderer for the templates in one folder; each file is read once. */
export function templateRenderer(dir) {
  const cache = new Map();
  return function renderTemplate(name, values) {
    if (!cache.has(name)) cache.set(name, readFileSync(new URL(name, dir), 'utf8'));
    return cache.get(name).replace(/\{\{(\w+)\}\}/g, (_, key) => {
      if (!(key in values)) throw new Error(`template ${name}: no value for {{${key}}}`);
      return String(values[key]);
    });
  };
}
