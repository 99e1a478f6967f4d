// Where `go mod download` puts a module: $GOMODCACHE/<escaped path>@<version> (upper-case
// letters escaped as !lower, the module cache's rule). The cache's folder is the
// driver's to find (driver.js runs `go env GOMODCACHE` once); a plan shown without it
// says $(go env GOMODCACHE).
import { join } from 'node:path';

export function upstreamChartDir(up, goModCache = '$(go env GOMODCACHE)') {
  const escaped = up.goModule.replace(/[A-Z]/g, (c) => `!${c.toLowerCase()}`);
  return join(goModCache, `${escaped}@${up.version}`, up.path);
}
