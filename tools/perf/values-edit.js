#!/usr/bin/env node
// One edit of a controller's values file for tools/perf/failover-pr.sh's scratch PRs.
//   node tools/perf/values-edit.js <values.yaml> <none|throttle-4s|update-3s>
import { readFileSync, writeFileSync } from 'node:fs';
import { parseDocument } from 'yaml';

const [file, change] = process.argv.slice(2);
const doc = parseDocument(readFileSync(file, 'utf8'));
const edits = {
  none: () => {
    doc.commentBefore = `${doc.commentBefore ?? ''}\n a no-op change`;
  },
  'throttle-4s': () => {
    const args = doc.getIn(['additionalArguments'])?.toJSON?.() ?? [];
    doc.setIn(['additionalArguments'], [...args, '--providers.providersThrottleDuration=4s']);
  },
  // haproxy-ingress's rate-limit-update is in updates per second: 0.5 (every 2 s) by default.
  'update-3s': () => doc.setIn(['controller', 'extraArgs', 'rate-limit-update'], '0.333'),
};
if (!edits[change] || !Object.hasOwn(edits, change)) {
  console.error(`values-edit: unknown change ${change} (${Object.keys(edits).join(', ')})`);
  process.exit(2);
}
edits[change]();
writeFileSync(file, doc.toString());
