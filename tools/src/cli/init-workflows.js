// The adopter's workflow files, as `tailgate init` writes them (and as examples/adopter
// holds them): one gate.yml call per gated matrix — each a gate of its own, with its own
// artifacts, comment and check run — and the commenting workflow naming the same list, so
// a gate that leaves no comment still gets a failed check. Both call tailgate at `source`:
// by default the repository of the package this runs from, at the commit of its release
// (release-ref.js) with the tag as the line's comment, else at the major tag its release
// moves. That `uses:` is the one pin: the reusable workflows check tailgate's scripts out
// at their own source (job.workflow_sha), so no second ref is written.
// `init --with dispatch,nightly` adds the callers of the other two uses: a manual run from
// the Actions tab (dispatch.yml) and a scheduled run on the adopter's own machine with
// history (nightly.yml) — thin callers, as tailgate's own bench-dispatch/bench-metal are.
import { packageSource } from '../release-ref.js';

/** What `init --with` can add, and the file each writes. */
export const EXTRA_WORKFLOWS = Object.freeze({
  dispatch: 'tailgate-dispatch.yml',
  nightly: 'tailgate-nightly.yml',
});

/** The self-hosted runner label the nightly caller and bench.yaml's profile name. */
export const BENCH_RUNNER = 'tailgate-bench';

/**
 * What follows `uses: <repository>/.github/workflows/<file>@`: the release's commit with
 * its tag as the line's comment, else the ref.
 */
export function usesRef({ ref, release = null }) {
  return release ? `${release.commit} # ${release.tag}` : ref;
}

/**
 * gates: the matrices gated on every PR, "pr" first; source: { repository: "owner/name",
 * ref, release: { tag, commit } | null }; extra: names of EXTRA_WORKFLOWS to add;
 * matrices: bench.yaml's, offered by the manual run's form -> { file name: text }.
 */
export function workflowFiles(gates, source = packageSource(), { extra = [], matrices = gates } = {}) {
  const { repository } = source;
  const at = usesRef(source);
  const pin = pinText(source);
  const job = (m) =>
    `  ${m === 'pr' ? 'gate' : `gate-${m}`}:
    uses: ${repository}/.github/workflows/gate.yml@${at}
    with:
      config: bench.yaml
      matrix: ${m}
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
    uses: ${repository}/.github/workflows/comment.yml@${at}
    with:
      gates: '${JSON.stringify(gates)}'
`,
    ...(extra.includes('dispatch') ? { [EXTRA_WORKFLOWS.dispatch]: dispatchText(pin, repository, at, matrices) } : {}),
    ...(extra.includes('nightly') ? { [EXTRA_WORKFLOWS.nightly]: nightlyText(pin, repository, at) } : {}),
  };
}

// Where the calls point, said once on top of each file: a release's commit (and what keeps
// it current), or a tag or branch that moves — then how to pin a commit instead.
function pinText({ repository, ref, release = null }) {
  const one = `It is the one pin: tailgate's workflows check out its scripts at their own commit.`;
  if (release)
    return `# tailgate from ${repository} at ${release.tag}: the commit that tag names, pinned in
# every \`uses:\`. ${one}
# .github/dependabot.yml proposes each new release (SHA and comment together).
`;
  if (/^[0-9a-f]{40}$/.test(ref))
    return `# tailgate from ${repository} at commit ${ref}, pinned in every \`uses:\`.
# ${one}
`;
  const moving = /^v\d+$/.test(ref) ? `, a tag each ${ref.slice(1)}.x release moves (not a fixed commit)` : '';
  return `# tailgate from ${repository} at ${ref}${moving}.
# ${one}
# To pin a commit, put its 40-hex SHA after each @ (\`git ls-remote
# https://github.com/${repository} ${ref}\` prints the one ${ref} names now).
`;
}

/** .github/dependabot.yml: the entry that keeps the pin of tailgate's workflows current. */
export function dependabotText({ repository }) {
  return `# Written by \`tailgate init\`: Dependabot looks weekly for a new release of tailgate's
# workflows (${repository}) and proposes it in one PR — every \`uses:\` of it, the SHA and its
# # vX.Y.Z comment together; that PR's own gates run the new release. Other actions of this
# repository are proposed here too, each a week after its release (cooldown).
version: 2
updates:
  - package-ecosystem: github-actions
    directory: /
    schedule: { interval: weekly }
    cooldown: { default-days: 7 }
    groups:
      tailgate: { patterns: ["${repository}*"] }
`;
}

// The manual run: the form's inputs typed as dispatch.yml's (a choice of bench.yaml's
// matrices), passed through as they are — dispatch.yml checks them again before any run.
function dispatchText(pin, repository, at, matrices) {
  return `# Manual runs from the Actions tab (Run workflow): tailgate's reusable dispatch.yml runs a
# matrix of bench.yaml, narrowed or reshaped by the form, on a GitHub-hosted runner; with
# compare: baseline it gates the results against the committed baselines of the matrix's
# profile (informational: the job summary), and update-baselines opens a pull request
# with baselines recorded from the run. Empty or 0: as bench.yaml says. The called
# workflow checks every value again before anything runs.
${pin}name: tailgate-dispatch
on:
  workflow_dispatch:
    inputs:
      matrix: { type: choice, options: [${matrices.join(', ')}], default: ${matrices[0]}, description: "bench.yaml matrix" }
      controllers: { type: string, default: "", description: "comma-separated controllers of the matrix; empty: all of them" }
      tunings: { type: string, default: "", description: "comma-separated tunings; empty: the matrix's" }
      scenarios: { type: string, default: "", description: "comma-separated scenarios; empty: the matrix's" }
      rate: { type: number, default: 0, description: "requests per second for every scenario (1..1000000); 0: the scenarios' own" }
      duration: { type: string, default: "", description: "measured time per run, e.g. 30s, 2m; empty: the scenarios' own" }
      repetitions: { type: number, default: 0, description: "runs per cell (1..50); 0: the matrix's" }
      # none: the PR gates are duets and need no baselines; baseline once you record some.
      compare: { type: choice, options: [none, baseline], default: none, description: "gate against the committed baselines (informational)" }
      update-baselines: { type: boolean, default: false, description: "open a pull request with baselines from this run" }
permissions:
  contents: read
concurrency:
  group: tailgate-dispatch-\${{ github.ref }}
  cancel-in-progress: false
jobs:
  dispatch:
    permissions:
      contents: write # only with update-baselines: the called job pushes a branch
      pull-requests: write # …and opens the pull request (Settings → Actions: allow Actions to create PRs)
    uses: ${repository}/.github/workflows/dispatch.yml@${at}
    with:
      config: bench.yaml
      matrix: \${{ inputs.matrix }}
      controllers: \${{ inputs.controllers }}
      tunings: \${{ inputs.tunings }}
      scenarios: \${{ inputs.scenarios }}
      rate: \${{ inputs.rate }}
      duration: \${{ inputs.duration }}
      repetitions: \${{ inputs.repetitions }}
      compare: \${{ inputs.compare }}
      update-baselines: \${{ inputs.update-baselines }}
      # The baseline PR's required checks arrive only if GitHub starts this repository's
      # workflows for it: set a GitHub App (the variable TAILGATE_APP_ID and the secret
      # TAILGATE_APP_KEY) or a fine-grained token (the secret TAILGATE_BASELINE_PR_TOKEN).
      # Neither: the workflow's own token opens it, and its checks start once a maintainer
      # closes and reopens it (tailgate's docs/adopting.md, "Baselines").
      baseline-pr-app-id: \${{ vars.TAILGATE_APP_ID }}
    secrets:
      baseline-pr-token: \${{ secrets.TAILGATE_BASELINE_PR_TOKEN }}
      baseline-pr-app-key: \${{ secrets.TAILGATE_APP_KEY }}
`;
}

// The nightly: bench.yaml's nightly matrix on the adopter's own machine, never from a PR.
function nightlyText(pin, repository, at) {
  return `# Every night on your own machine — a self-hosted runner labelled ${BENCH_RUNNER}: tailgate's
# reusable nightly.yml runs bench.yaml's nightly matrix there, gated against that machine's
# committed baselines (none yet: results only). On the default branch it appends the run
# to the tailgate-history branch, finds change points, rebuilds the page and its charts,
# and opens or updates one issue when the default branch got worse.
# No pull_request trigger, on purpose: a fork's PR must never reach your machine.
${pin}name: tailgate-nightly
on:
  schedule:
    - cron: "17 3 * * *" # 03:17 UTC, from the default branch
  workflow_dispatch:
permissions:
  contents: read
concurrency:
  group: tailgate-nightly # one run at a time: the machine measures
  cancel-in-progress: false
jobs:
  nightly:
    permissions:
      contents: write # only the called history job, on the default branch: push tailgate-history
      issues: write # …and the change-point issue
    uses: ${repository}/.github/workflows/nightly.yml@${at}
    with:
      config: bench.yaml
      matrix: nightly
      runs-on: '["self-hosted", "linux", "${BENCH_RUNNER}"]'
      # The machine runs the default branch's bench.yaml only: Run workflow on another
      # branch is refused before anything is set up there (allow-other-branches: true lets
      # it run). GitHub creates the environment unprotected: Settings → Environments →
      # ${BENCH_RUNNER} → Required reviewers makes every run, the nightly ones too, wait for
      # one; Deployment branches → the default branch makes other branches' runs fail.
      environment: ${BENCH_RUNNER}
      # The load generator's own cores on that machine (a repository variable, e.g. 2-3).
      k6-cpus: \${{ vars.TAILGATE_K6_CPUS }}
`;
}
