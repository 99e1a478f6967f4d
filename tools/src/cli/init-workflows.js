// The adopter's two workflow files, as `tailgate init` writes them (and as
// examples/adopter holds them): one gate.yml call per gated matrix — each a gate of its
// own, with its own artifacts, comment and check run — and the commenting workflow naming
// the same list, so a gate that leaves no comment still gets a failed check. Both call
// tailgate at `source`: by default the repository and ref of the package this runs from
// (release-ref.js: the major tag its release moved), so the `uses:` lines resolve.
import { packageSource } from '../release-ref.js';

/**
 * gates: the matrices gated on every PR, "pr" first; source: { repository: "owner/name",
 * ref } -> { file name: text }.
 */
export function workflowFiles(gates, source = packageSource()) {
  const { repository, ref } = source;
  // tailgate-repository too, not gate.yml's default: a fork's callers check out the fork.
  const moved = /^v\d+$/.test(ref) ? `, the tag each ${ref.slice(1)}.x release moves` : '';
  const pin = `# tailgate from ${repository} at ${ref}${moved}. A reusable
# workflow cannot see the ref it was called at, so each call names it twice — \`uses: …@${ref}\`
# and \`tailgate-ref: ${ref}\` — keep them equal. To pin a commit, put its 40-hex SHA in both
# (\`git ls-remote https://github.com/${repository} ${ref}\` prints the one ${ref} names now).
`;
  const job = (m) =>
    `  ${m === 'pr' ? 'gate' : `gate-${m}`}:
    uses: ${repository}/.github/workflows/gate.yml@${ref}
    with:
      config: bench.yaml
      matrix: ${m}
      tailgate-repository: ${repository}
      tailgate-ref: ${ref}
`;
  return {
    'tailgate.yml': `# The tailgate PR gate: tailgate's reusable workflow runs each gated matrix of bench.yaml
# on kind and fails the PR on a tail-latency or error regression. One job per matrix,
# each a gate of its own (artifacts, comment, check run); tailgate-comment.yml names the
# same list. Make the check runs required (tailgate, tailgate (<matrix>)), not these jobs.
${pin}name: tailgate
on:
  pull_request:
permissions:
  contents: read
concurrency:
  group: tailgate-\${{ github.event.pull_request.number }}
  cancel-in-progress: true
jobs:
${gates.map(job).join('')}`,
    'tailgate-comment.yml': `# Posts tailgate's verdict on the PR, also for PRs from forks: runs from the default
# branch with a write token, never runs PR code, validates the artifact as hostile input.
# One comment and one check run per gate of tailgate.yml (gates: the same matrices).
${pin}name: tailgate-comment
on:
  workflow_run: # zizmor: ignore[dangerous-triggers] tailgate's commenter runs no PR code
    workflows: [tailgate]
    types: [completed]
permissions: {}
jobs:
  comment:
    permissions:
      actions: read
      pull-requests: write
      checks: write # the verdict as a check run, annotated on the PR's lines
    uses: ${repository}/.github/workflows/comment.yml@${ref}
    with:
      gates: '${JSON.stringify(gates)}'
      tailgate-repository: ${repository}
      tailgate-ref: ${ref}
`,
  };
}
