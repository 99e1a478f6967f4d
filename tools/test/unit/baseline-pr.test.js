// Issue 68, item 4: a baseline PR that can merge. GitHub starts no workflow for a PR the
// workflow's own token opens, so its required checks never arrive; a GitHub App's token or
// a fine-grained token does. tools/ci/app-token.js mints the App's installation token (a
// JWT its private key signed, then the installation on the repository, then a token for
// that repository alone with contents and pull-requests write); open-pr.js opens the PR,
// and a re-run finds the one already open. Against the REST stand-in.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { appJwt } from '../../ci/app-token.js';
import { startRestStandin } from '../workflows/rest-standin.js';
import { scratchDir } from '../helpers/scratch.js';

const ROOT = new URL('../../../', import.meta.url).pathname;
// A script of tools/ci run as the workflow runs it — asynchronously: the REST stand-in
// answers from this same process.
const script = (name, args, env) =>
  new Promise((resolve) =>
    execFile(
      process.execPath,
      [join(ROOT, 'tools', 'ci', name), ...args],
      { env: { PATH: process.env.PATH, ...env } },
      (error, stdout, stderr) => resolve({ code: error?.code ?? 0, out: stdout.trim(), err: stderr.trim() }),
    ),
  );

const keys = () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }),
    publicKey: publicKey.export({ type: 'spki', format: 'pem' }),
  };
};

test("app-token.js: the App's JWT (RS256, 9 minutes) gets a token for this repository alone, contents and pull-requests write", async () => {
  const app = keys();
  const api = await startRestStandin({ apps: { 4242: { publicKey: app.publicKey, installation: 77 } } });
  try {
    const env = { GITHUB_API_URL: api.url, GITHUB_REPOSITORY: 'acme/ingress', APP_ID: '4242' };
    const r = await script('app-token.js', [], { ...env, APP_PRIVATE_KEY: app.privateKey });
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^ghs_standin\d+$/);
    assert.deepEqual(api.state.tokens.at(-1), {
      token: r.out,
      repositories: ['ingress'],
      permissions: { contents: 'write', pull_requests: 'write' },
    });
    // The claims GitHub checks: issuer, issued a minute back, at most 10 minutes long.
    const [, claims] = appJwt('4242', app.privateKey, 1_000_000).split('.');
    assert.deepEqual(JSON.parse(Buffer.from(claims, 'base64url')), { iat: 999_940, exp: 1_000_540, iss: '4242' });
  } finally {
    api.close();
  }
});

test('app-token.js refuses before asking GitHub: no App ID, a key that is no PEM; another key is not the App (exit 4, said)', async () => {
  const repo = { GITHUB_REPOSITORY: 'acme/ingress' };
  assert.match((await script('app-token.js', [], { ...repo, APP_ID: 'x' })).err, /APP_ID: the App ID is a number/);
  assert.match(
    (await script('app-token.js', [], { ...repo, APP_ID: '1', APP_PRIVATE_KEY: 'secret' })).err,
    /APP_PRIVATE_KEY: not a PEM private key/,
  );
  const app = keys();
  const api = await startRestStandin({ apps: { 4242: { publicKey: app.publicKey, installation: 77 } } });
  try {
    const r = await script('app-token.js', [], {
      GITHUB_API_URL: api.url,
      ...repo,
      APP_ID: '4242',
      APP_PRIVATE_KEY: keys().privateKey,
    });
    assert.equal(r.code, 4);
    assert.match(
      r.err,
      /the App 4242's installation on acme\/ingress \(install the App on this repository\): HTTP 401/,
    );
    assert.equal(api.state.tokens.length, 0);
  } finally {
    api.close();
  }
});

test('open-pr.js opens the PR with the token it is given; a re-run finds the one already open', async () => {
  const api = await startRestStandin();
  try {
    const body = join(scratchDir('tg-open-pr-'), 'body.md');
    writeFileSync(body, 'Recorded by the workflow **tailgate-dispatch**.\n');
    const open = () =>
      script('open-pr.js', ['main', 'tailgate/baselines-9', 'tailgate: update baselines', body], {
        GITHUB_API_URL: api.url,
        GITHUB_REPOSITORY: 'acme/ingress',
        GH_TOKEN: 'tok-1',
      });
    const first = await open();
    assert.equal(first.code, 0, first.err);
    assert.match(first.out, /^opened: https:\/\/github\.invalid\/pull\/\d+$/);
    const again = await open();
    assert.equal(again.code, 0, again.err);
    assert.equal(again.out.replace('already open', 'opened'), first.out);
    assert.equal(api.state.pulls.length, 1);
    assert.equal(api.state.pulls[0].body, 'Recorded by the workflow **tailgate-dispatch**.\n');
    assert.ok(api.state.calls.filter((c) => c.path.endsWith('/pulls')).every((c) => c.auth === 'Bearer tok-1'));
  } finally {
    api.close();
  }
});
