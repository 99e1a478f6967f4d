#!/usr/bin/env bash
# The release, one subcommand per step of .github/workflows/release.yml; each runs the
# same on a laptop (TAG=v1.2.0 tools/ci/release.sh check). docs/release.md is the policy.
#   check           the tag is package.json's version and CHANGELOG.md has its section, which
#                   GitHub will take as release notes (size: release-notes.js) — before publish
#   test            the unit suite (make test-unit)
#   pack            npm pack into $RELEASE_OUT, with release.json (the tag and its commit,
#                   which init pins), then check the tarball holds what
#                   `npx tailgate init / validate / run / setup` read
#   publish         npm publish of that tarball, with provenance (id-token: write); a
#                   version the registry already has is skipped, so a re-run is safe
#   notes           the CHANGELOG section, into $RELEASE_OUT/notes.md (after pack, before publish)
#   github-release  the GitHub release with those notes (tools/ci/release-github.js)
#   move-major-tag  v<major> (v0 for 0.x) to the tag's commit: the ref `tailgate init` of this
#                   version writes into `uses: …@v0` (tools/src/release-ref.js decides both)
# Stand-ins (make test-workflows, tools/test/workflows/release.test.js): RELEASE_NPM_DRY_RUN=1
# makes publish `npm publish --dry-run --offline` (the registry is an outside service);
# RELEASE_UNIT_TESTS names the test files `test` runs instead of the whole suite.
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=gh.sh
source tools/ci/gh.sh
TAG=${TAG:-${GITHUB_REF_NAME:-}}
OUT=${RELEASE_OUT:-${RUNNER_TEMP:-$PWD}/tailgate-release}
fail() { gh_error "release: $*"; exit "${2:-2}"; }
[[ "$TAG" =~ ^v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]] || fail "TAG must be a version tag like v1.2.0, got '${TAG}'"
VERSION=${TAG#v}
tarball() { echo "$OUT/tailgate-$VERSION.tgz"; }

case "${1:-}" in
  check)
    node tools/ci/release-notes.js check "$TAG" || fail "$TAG cannot be released (above)"
    # The tag's commit is what is checked out: what is packed is what was tagged.
    commit=$(git rev-parse "refs/tags/$TAG^{commit}") || fail "no tag $TAG in this checkout"
    [ "$commit" = "$(git rev-parse HEAD)" ] || fail "HEAD is not $TAG's commit $commit"
    ;;
  test)
    if [ -n "${RELEASE_UNIT_TESTS:-}" ]; then
      npm ci --no-audit --no-fund --prefer-offline --loglevel=error
      # shellcheck disable=SC2086 # a list of files
      node --test --test-concurrency=2 $RELEASE_UNIT_TESTS
    else
      make test-unit
    fi
    ;;
  pack)
    rm -rf "$OUT" && mkdir -p "$OUT"
    # The commit the tag names goes into the package (release.json, package.json files):
    # `tailgate init` of this package pins it in every `uses:` (tools/src/release-ref.js).
    # HEAD is the tag's commit (check); a test's pack of a checkout names its HEAD.
    commit=$(git rev-parse HEAD) || fail "no commit to name in release.json" 4
    trap 'rm -f release.json' EXIT
    printf '{ "tag": "%s", "commit": "%s" }\n' "$TAG" "$commit" > release.json
    npm pack --pack-destination "$OUT" --loglevel=error >/dev/null
    rm -f release.json
    [ -f "$(tarball)" ] || fail "npm pack wrote no $(tarball)" 4
    listing=$(tar -tzf "$(tarball)")
    # What the commands of a package install read; a `files` entry dropped from
    # package.json would otherwise ship a package that fails only at its user's.
    for need in tools/bin/tailgate.js tools/src/cli/main.js tools/versions.json schemas/bench.schema.json \
      tools/src/validators/bench.cjs tools/src/validators/result.cjs \
      schemas/verdict.schema.json charts/controllers/traefik/controller.yaml k6/scenarios/steady.js \
      tools/scripts/setup.sh tools/ci/install-kube-tools.sh LICENSE README.md CHANGELOG.md release.json; do
      grep -qx "package/$need" <<< "$listing" || fail "$(tarball): package/$need missing (package.json files)" 4
    done
    echo "release: $(tarball), $(wc -l <<< "$listing") files"
    ;;
  publish)
    [ -f "$(tarball)" ] || fail "no $(tarball): run pack first" 4
    dry=()
    [ "${RELEASE_NPM_DRY_RUN:-}" = 1 ] && dry=(--dry-run --offline)
    if [ ${#dry[@]} = 0 ]; then
      if seen=$(npm view "tailgate@$VERSION" version 2>&1); then
        [ "$seen" = "$VERSION" ] && { gh_notice "release: tailgate@$VERSION is published already: not again"; exit 0; }
      elif ! grep -q E404 <<< "$seen"; then
        fail "npm view tailgate@$VERSION: $seen" 4
      fi
      # Trusted publishing (the registry trusts this workflow's OIDC token) needs no
      # secret; otherwise NPM_TOKEN, for the registry npm is configured with.
      if [ -n "${NPM_TOKEN:-}" ]; then
        npmrc=$(mktemp) && trap 'rm -f "$npmrc"' EXIT
        registry=$(npm config get registry)
        printf '//%s:_authToken=%s\n' "$(sed -E 's#^https?://##; s#/?$#/#' <<< "$registry")" "$NPM_TOKEN" > "$npmrc"
        export NPM_CONFIG_USERCONFIG=$npmrc
      fi
    fi
    tag=latest
    [[ "$VERSION" == *-* ]] && tag=next # a pre-release is never what `npm install tailgate` gets
    echo "release: npm publish ${dry[*]} --provenance --access public --tag $tag $(tarball)"
    npm publish "${dry[@]}" --provenance --access public --tag "$tag" "$(tarball)"
    ;;
  notes)
    mkdir -p "$OUT"
    node tools/ci/release-notes.js notes "$VERSION" > "$OUT/notes.md"
    echo "release: notes for $TAG ($(wc -l < "$OUT/notes.md") lines) in $OUT/notes.md"
    ;;
  github-release)
    [ -f "$OUT/notes.md" ] || fail "no $OUT/notes.md: run notes first" 4
    node tools/ci/release-github.js release "$TAG" "$OUT/notes.md"
    ;;
  move-major-tag)
    node tools/ci/release-github.js move-major-tag "$TAG" "$(git rev-parse "refs/tags/$TAG^{commit}")"
    ;;
  *) fail "subcommand must be check, test, pack, publish, notes, github-release or move-major-tag, got '${1:-}'" ;;
esac
