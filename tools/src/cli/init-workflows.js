// The adopter's two workflow files, as `tailgate init` writes them (and as
// examples/adopter holds them): one gate.yml call per gated matrix — each a gate of its
// own, with its own artifacts, comment and check run — and the commenting workflow naming
// the same list, so a gate that leaves no comment still gets a failed check.

/** gates: the matrices gated on every PR, "pr" first -> { file name: text }. */
export function workflowFiles(gates) {
  const job = (m) =>
    `  ${m === 'pr' ? 'gate' : `gate-${m}`}:
    uses: tailgate-dev/tailgate/.github/workflows/gate.yml@v1
    with:
      config: bench.yaml
      matrix: ${m}
      tailgate-ref: v1 # the same ref as the line above
`;
  return {
    'tailgate.yml': `# The tailgate PR gate: tailgate's reusable workflow runs each gated matrix of bench.yaml
# on kind and fails the PR on a tail-latency or error regression. One job per matrix,
# each a gate of its own (artifacts, comment, check run); tailgate-comment.yml names the
# same list. Make the check runs required (tailgate, tailgate (<matrix>)), not these jobs.
name: tailgate
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
name: tailgate-comment
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
    uses: tailgate-dev/tailgate/.github/workflows/comment.yml@v1
    with:
      gates: '${JSON.stringify(gates)}'
      tailgate-ref: v1
`,
  };
}
