// Report templates (templates/): gnuplot scripts and the PR comment.
import { templateRenderer } from '../template.js';

export const renderTemplate = templateRenderer(new URL('./templates/', import.meta.url));
