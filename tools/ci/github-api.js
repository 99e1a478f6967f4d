// GitHub's REST API for the workflows' node scripts (open-pr.js, app-token.js): one call,
// GITHUB_API_URL (the REST stand-in under act) and the token given. -> { status, data }.
export async function api(method, path, { token, body, bearer = token } = {}) {
  const base = process.env.GITHUB_API_URL || 'https://api.github.com';
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      accept: 'application/vnd.github+json',
      authorization: `Bearer ${bearer}`,
      'x-github-api-version': '2022-11-28',
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = res.status === 204 ? null : await res.json().catch(() => null);
  return { status: res.status, data };
}

/** The data of a 2xx answer; anything else throws, naming what was asked. */
export function must(r, what) {
  if (r.status >= 200 && r.status < 300) return r.data;
  throw new Error(`${what}: HTTP ${r.status} ${r.data?.message ?? ''}`.trim());
}
