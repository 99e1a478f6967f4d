// The PR that adopts tailgate: its base commit has no tailgate config — no file at the
// config's path and no workflow calling tailgate's gate.yml — so its head's cells ran
// alone with nothing to compare them with. That is not a finding: the gate passes and
// says so ("tailgate adopted: the next PR is compared with this one"), where it would
// otherwise be red for want of a base. Both conditions, so that a repository that has
// adopted cannot pass a PR by moving or renaming its config (its base still calls gate.yml:
// no-baseline, red, as before).
import { relative } from 'node:path';
import { runSync } from '../exec/run.js';
import { gateCalls } from '../plan/gate-identity.js';

export const ADOPTED_TITLE = 'tailgate adopted: the next PR is compared with this one';

const git = (args) => runSync(['git', ...args], { timeoutMs: 60_000 });

/**
 * { adopted, why }: adopted only when the base commit `ref` provably has neither; anything
 * git cannot answer is no adoption (the gate stays closed).
 */
export function adoptionAt({ ref, configFile }) {
  const rel = relative(process.cwd(), configFile).split('\\').join('/');
  const config = git(['cat-file', '-e', `${ref}:./${rel}`]);
  if (config.code === 0) return { adopted: false, why: `the base commit has ${rel}` };
  const listed = git(['ls-tree', '--full-tree', '-r', '--name-only', ref, '--', '.github/workflows']);
  if (listed.code !== 0 || git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]).code !== 0)
    return { adopted: false, why: `the base commit ${ref} cannot be read` };
  for (const file of listed.stdout.split('\n').filter((f) => /\.ya?ml$/.test(f))) {
    const shown = git(['show', `${ref}:${file}`]);
    let calls;
    try {
      calls = shown.code === 0 ? gateCalls(shown.stdout, file) : null;
    } catch {
      calls = null; // a workflow that does not parse: not provably free of a gate
    }
    if (!calls) return { adopted: false, why: `the base's ${file} cannot be read` };
    if (calls.length) return { adopted: false, why: `the base's ${file} calls gate.yml` };
  }
  return {
    adopted: true,
    why: `the base commit ${ref.slice(0, 12)} has no ${rel} and no workflow calling tailgate's gate.yml`,
  };
}

/**
 * The adoption comment: the sticky marker stays the first line, the adoption its first
 * heading (the check run's title), the head's own report folded below it.
 */
export function adoptionComment(comment, { ref, configFile }) {
  // The report's own next step (record a baseline) is not this PR's: the adoption says what is.
  const [marker, ...rest] = comment.split('\n').filter((l) => !l.startsWith('**Next:**'));
  const rel = relative(process.cwd(), configFile).split('\\').join('/');
  return `${marker}
### ${ADOPTED_TITLE}

The base commit (\`${ref.slice(0, 12)}\`) has no \`${rel}\` and no workflow calling tailgate's \`gate.yml\`: this PR adopts tailgate, so its head's cells ran alone — the workflow, the cluster and the chart came up — and there was nothing to compare them with. This gate passes. From the next PR on, each PR's head is compared with its base, and this check fails on a regression.

<details><summary>What the head measured alone</summary>

${rest.join('\n').trim()}

</details>
`;
}
