import * as direct from './direct.js';
import * as haproxyReload from './haproxy-reload.js';
import * as haproxyRuntime from './haproxy-runtime.js';
import * as nginxDynamic from './nginx-dynamic.js';
import * as nginxReload from './nginx-reload.js';

export const VARIANTS = Object.fromEntries(
  [nginxReload, nginxDynamic, haproxyReload, haproxyRuntime, direct].map((v) => [v.name, v]),
);
