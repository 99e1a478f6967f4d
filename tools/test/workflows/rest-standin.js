// A stand-in for the part of GitHub's REST API the workflows use, on 127.0.0.1: it
// records every call (method, path, body) for the tests to check, and keeps pull
// requests, comments and artifacts in memory. The one fake in make test-workflows:
// GitHub itself is an outside service.
import { createVerify } from 'node:crypto';
import { createServer } from 'node:http';

export async function startRestStandin({
  pulls = [],
  artifacts = {},
  issues = [],
  files = {},
  refs = [],
  apps = {},
} = {}) {
  // files: { <pull number>: [{ filename, status }] }, what pulls.listFiles answers.
  // refs: the repository's git refs [{ ref: 'refs/tags/v1', object: { sha } }] (releases).
  // apps: GitHub Apps installed on the repository, { <app id>: { publicKey (PEM), installation } }:
  // a JWT the App's key signed gets the installation and a token (tools/ci/app-token.js).
  const state = {
    pulls,
    comments: [],
    issues,
    artifacts,
    files,
    refs,
    releases: [],
    checkRuns: [],
    apps,
    tokens: [],
    calls: [],
    nextId: 1000,
  };
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const url = new URL(req.url, 'http://x');
      const call = { method: req.method, path: url.pathname, query: Object.fromEntries(url.searchParams) };
      // Which token asked (a test checks who opened a PR); never a real one here.
      if (req.headers.authorization) call.auth = req.headers.authorization;
      if (body) call.body = JSON.parse(body);
      state.calls.push(call);
      const send = (status, data, type = 'application/json') => {
        res.writeHead(status, { 'content-type': type });
        res.end(type === 'application/json' ? JSON.stringify(data) : data);
      };
      const m = (re) => re.exec(url.pathname);
      let x;
      if ((x = m(/^\/repos\/[^/]+\/[^/]+\/actions\/runs\/(\d+)\/artifacts$/))) {
        const list = (state.artifacts[x[1]] ?? []).filter((a) => !call.query.name || a.name === call.query.name);
        return send(200, { total_count: list.length, artifacts: list.map(({ id, name }) => ({ id, name })) });
      }
      if ((x = m(/^\/repos\/[^/]+\/[^/]+\/actions\/artifacts\/(\d+)\/zip$/))) {
        const a = Object.values(state.artifacts)
          .flat()
          .find((y) => String(y.id) === x[1]);
        return a ? send(200, a.zip, 'application/zip') : send(404, { message: 'Not Found' });
      }
      if ((x = m(/^\/repos\/[^/]+\/[^/]+\/pulls\/(\d+)\/files$/))) return send(200, state.files[x[1]] ?? []);
      if ((x = m(/^\/repos\/[^/]+\/[^/]+\/commits\/([0-9a-f]+)\/check-runs$/))) {
        const runs = state.checkRuns.filter(
          (c) => c.head_sha === x[1] && (!call.query.check_name || c.name === call.query.check_name),
        );
        return send(200, { total_count: runs.length, check_runs: runs });
      }
      if (m(/^\/repos\/[^/]+\/[^/]+\/check-runs$/) && req.method === 'POST') {
        const c = { id: state.nextId++, ...call.body, app: { slug: 'github-actions' } };
        state.checkRuns.push(c);
        return send(201, c);
      }
      if ((x = m(/^\/repos\/[^/]+\/[^/]+\/check-runs\/(\d+)$/)) && req.method === 'PATCH') {
        const c = state.checkRuns.find((y) => String(y.id) === x[1]);
        if (!c) return send(404, { message: 'Not Found' });
        Object.assign(c, call.body);
        return send(200, c);
      }
      if ((x = m(/^\/repos\/[^/]+\/[^/]+\/commits\/([0-9a-f]+)\/pulls$/)))
        return send(
          200,
          state.pulls.filter((p) => p.head.sha === x[1] && !p.fork),
        );
      if ((x = m(/^\/repos\/([^/]+)\/[^/]+\/pulls$/)) && req.method === 'POST') {
        const { base, head, title, body: text } = call.body;
        if (state.pulls.some((p) => p.state === 'open' && p.head.ref === head))
          return send(422, { message: `A pull request already exists for ${x[1]}:${head}.` });
        const number = state.nextId++;
        const p = {
          number,
          state: 'open',
          title,
          body: text,
          html_url: `https://github.invalid/pull/${number}`,
          head: { ref: head, repo: { owner: { login: x[1] } } },
          base: { ref: base },
        };
        state.pulls.push(p);
        return send(201, p);
      }
      if (m(/^\/repos\/[^/]+\/[^/]+\/pulls$/)) {
        const head = call.query.head;
        return send(
          200,
          state.pulls.filter((p) => !head || `${p.head.repo.owner.login}:${p.head.ref}` === head),
        );
      }
      if (m(/^\/repos\/[^/]+\/[^/]+\/issues$/)) {
        if (req.method === 'GET') {
          const label = call.query.labels;
          return send(
            200,
            state.issues.filter(
              (i) => i.state === (call.query.state ?? 'open') && (!label || i.labels.some((l) => l.name === label)),
            ),
          );
        }
        const i = {
          number: state.nextId++,
          state: 'open',
          title: call.body.title,
          body: call.body.body,
          labels: (call.body.labels ?? []).map((name) => ({ name })),
          // The workflow token's identity, as GitHub records the issue's author.
          user: { login: 'github-actions[bot]', type: 'Bot' },
        };
        state.issues.push(i);
        return send(201, i);
      }
      if ((x = m(/^\/repos\/[^/]+\/[^/]+\/issues\/(\d+)$/)) && req.method === 'PATCH') {
        const i = state.issues.find((y) => String(y.number) === x[1]);
        if (!i) return send(404, { message: 'Not Found' });
        Object.assign(i, call.body);
        return send(200, i);
      }
      if ((x = m(/^\/repos\/[^/]+\/[^/]+\/issues\/(\d+)\/comments$/))) {
        if (req.method === 'GET')
          return send(
            200,
            state.comments.filter((c) => c.issue === Number(x[1])),
          );
        const c = {
          id: state.nextId++,
          issue: Number(x[1]),
          body: call.body.body,
          user: { login: 'github-actions[bot]', type: 'Bot' },
        };
        state.comments.push(c);
        return send(201, c);
      }
      if ((x = m(/^\/repos\/[^/]+\/[^/]+\/issues\/comments\/(\d+)$/)) && req.method === 'PATCH') {
        const c = state.comments.find((y) => String(y.id) === x[1]);
        if (!c) return send(404, { message: 'Not Found' });
        c.body = call.body.body;
        return send(200, c);
      }
      if (release(req, call, m, send)) return;
      if (app(req, call, m, send)) return;
      return send(404, { message: `stand-in: no route for ${req.method} ${url.pathname}` });
    });
  });
  // Releases and git refs (tools/ci/release-github.js): true when the call was one of them.
  function release(req, call, m, send) {
    const reply = (status, data) => (send(status, data), true);
    const notFound = () => reply(404, { message: 'Not Found' });
    let x;
    if ((x = m(/^\/repos\/[^/]+\/[^/]+\/releases\/tags\/([^/]+)$/))) {
      const r = state.releases.find((y) => y.tag_name === decodeURIComponent(x[1]));
      return r ? reply(200, r) : notFound();
    }
    if (m(/^\/repos\/[^/]+\/[^/]+\/releases$/) && req.method === 'POST') {
      const r = { id: state.nextId++, ...call.body, html_url: `https://github.invalid/releases/${call.body.tag_name}` };
      state.releases.push(r);
      return reply(201, r);
    }
    if ((x = m(/^\/repos\/[^/]+\/[^/]+\/releases\/(\d+)$/)) && req.method === 'PATCH') {
      const r = state.releases.find((y) => String(y.id) === x[1]);
      return r ? reply(200, Object.assign(r, call.body)) : notFound();
    }
    if ((x = m(/^\/repos\/[^/]+\/[^/]+\/git\/matching-refs\/(.+)$/)))
      return reply(
        200,
        state.refs.filter((y) => y.ref.startsWith(`refs/${x[1]}`)),
      );
    if ((x = m(/^\/repos\/[^/]+\/[^/]+\/git\/refs\/(.+)$/)) && req.method === 'PATCH') {
      const r = state.refs.find((y) => y.ref === `refs/${x[1]}`);
      if (!r) return reply(422, { message: 'Reference does not exist' });
      r.object = { sha: call.body.sha };
      return reply(200, r);
    }
    if (m(/^\/repos\/[^/]+\/[^/]+\/git\/refs$/) && req.method === 'POST') {
      if (state.refs.some((y) => y.ref === call.body.ref)) return reply(422, { message: 'Reference already exists' });
      const r = { ref: call.body.ref, object: { sha: call.body.sha } };
      state.refs.push(r);
      return reply(201, r);
    }
    return false;
  }
  // A GitHub App's installation and its tokens: only for a JWT its own key signed, unexpired.
  function app(req, call, m, send) {
    const reply = (status, data) => (send(status, data), true);
    const asApp = () => {
      const [head, claims, sig] = String(call.auth ?? '')
        .replace(/^Bearer /, '')
        .split('.');
      let c;
      try {
        c = JSON.parse(Buffer.from(claims, 'base64url').toString());
      } catch {
        return null;
      }
      const a = state.apps[c?.iss];
      const now = Math.floor(Date.now() / 1000);
      if (!a || !(c.exp > now) || !(c.iat <= now) || c.exp - c.iat > 600) return null;
      const ok = createVerify('RSA-SHA256').update(`${head}.${claims}`).verify(a.publicKey, sig, 'base64url');
      return ok ? a : null;
    };
    if (m(/^\/repos\/[^/]+\/[^/]+\/installation$/)) {
      const a = asApp();
      return a ? reply(200, { id: a.installation }) : reply(401, { message: 'A JSON web token could not be decoded' });
    }
    let x;
    if ((x = m(/^\/app\/installations\/(\d+)\/access_tokens$/)) && req.method === 'POST') {
      const a = asApp();
      if (!a || String(a.installation) !== x[1]) return reply(401, { message: 'Bad credentials' });
      const t = { token: `ghs_standin${state.nextId++}`, ...call.body };
      state.tokens.push(t);
      return reply(201, { token: t.token, permissions: call.body?.permissions });
    }
    return false;
  }
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${server.address().port}`, state, close: () => server.close() };
}
