// Report templates (templates/): plain files with {{name}} placeholders.
import { readFileSync } from 'node:fs';

const DIR = new URL('./templates/', import.meta.url);

export function renderTemplate(name, values) {
  return readFileSync(new URL(name, DIR), 'utf8').replace(/\{\{(\w+)\}\}/g, (_, key) => {
    if (!(key in values)) throw new Error(`template ${name}: no value for {{${key}}}`);
    return String(values[key]);
  });
}
