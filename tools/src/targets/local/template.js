// Proxy configs are template files (templates/), filled with {{name}} values: the
// generated file is what a user reads when a proxy rejects it, so keep it plain.
import { templateRenderer } from '../../template.js';

export const renderTemplate = templateRenderer(new URL('./templates/', import.meta.url));
