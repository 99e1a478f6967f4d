#!/usr/bin/env node
// A GitHub App's installation token for this repository, minted here (no third-party
// action): a JWT signed with the App's private key (RS256, 9 minutes) names the App, GitHub
// answers the installation on the repository and a token for that repository alone with
// contents: write and pull-requests: write. GitHub starts workflows for what an App
// token does (a PR it opens gets its required checks), unlike for the workflow's own.
// Prints the token (open-baseline-pr.sh masks it).
// Env: GITHUB_REPOSITORY, APP_ID, APP_PRIVATE_KEY (PEM), [GITHUB_API_URL].
import { createSign } from 'node:crypto';
import { api, must } from './github-api.js';

const b64url = (s) => Buffer.from(s).toString('base64url');

/** The App's JWT: issued a minute back (clock skew), valid 9 minutes (GitHub allows 10). */
export function appJwt(appId, privateKey, now = Math.floor(Date.now() / 1000)) {
  const head = b64url(JSON.stringify({ alg: 'RS256', typ: 'JWT' }));
  const claims = b64url(JSON.stringify({ iat: now - 60, exp: now + 540, iss: String(appId) }));
  const signature = createSign('RSA-SHA256').update(`${head}.${claims}`).sign(privateKey).toString('base64url');
  return `${head}.${claims}.${signature}`;
}

export async function installationToken({ repository, appId, privateKey }) {
  const bearer = appJwt(appId, privateKey);
  const inst = must(
    await api('GET', `/repos/${repository}/installation`, { bearer }),
    `the App ${appId}'s installation on ${repository} (install the App on this repository)`,
  );
  const made = must(
    await api('POST', `/app/installations/${inst.id}/access_tokens`, {
      bearer,
      body: {
        repositories: [repository.split('/')[1]],
        permissions: { contents: 'write', pull_requests: 'write' },
      },
    }),
    `a token of the App ${appId} for ${repository} (it needs Contents and Pull requests: read and write)`,
  );
  return made.token;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { GITHUB_REPOSITORY: repository, APP_ID: appId, APP_PRIVATE_KEY: privateKey } = process.env;
  const go = async () => {
    if (!/^[\w.-]+\/[\w.-]+$/.test(repository ?? '')) throw new Error('GITHUB_REPOSITORY is not owner/name');
    if (!/^\d+$/.test(appId ?? '')) throw new Error('APP_ID: the App ID is a number');
    if (!/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(privateKey ?? ''))
      throw new Error("APP_PRIVATE_KEY: not a PEM private key (the App's .pem file, whole)");
    return installationToken({ repository, appId, privateKey });
  };
  go().then(
    (token) => console.log(token),
    (err) => {
      console.error(`app-token: ${err.message}`);
      process.exitCode = 4;
    },
  );
}
