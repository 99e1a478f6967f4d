// Vegeta as a load engine: the scenario's attacks (plan.js) one after the other,
// their results encoded to one gzipped JSON-lines file that ingest reads with the Vegeta
// reader. A duet's two targets alternate in Vegeta's round-robin targeter, so each side
// gets half of the (doubled) rate at the same moments, as k6's alternating iterations do.
import { createReadStream, createWriteStream, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { scenarioMs } from '../../config/normalise.js';
import { commandLine } from '../../exec/command.js';
import { startProcess } from '../../exec/start.js';
import { toolEnv, which } from '../../exec/tools.js';
import { InfraError } from '../../errors.js';
import { LOAD_START_MS, pause } from '../../faults/schedule.js';
import { loadBudget, pinned } from '../load.js';
import { addUsage, sampleUsage } from '../usage.js';
import { attackArgs, attackPlan, targetsText, targetUrl } from './plan.js';

/** Files of one Vegeta run in a cell folder; runner i of several gets its own. */
export function vegetaFiles(cellDir, segment) {
  const tag = segment && segment.count > 1 ? `-r${segment.index + 1}` : '';
  return {
    output: join(cellDir, `vegeta${tag}.json.gz`),
    log: join(cellDir, `vegeta${tag}.log`),
    targets: join(cellDir, `vegeta-targets${tag}.json`),
  };
}

/**
 * Runs a scenario on Vegeta; resolves like k6/run.js runK6 ({exitCode, startedAt, endedAt,
 * command, output, log}) plus format and the duet's side URLs for ingest. The load starts
 * LOAD_START_MS after the call, as k6's does after its start and preflight, so a scenario's
 * fault schedule lands at the same point of the load on either engine.
 */
export async function runVegeta(scenario, { cellDir, url, urlB, host = 'bench.local', signal, segment = null }) {
  const vegeta = which('vegeta');
  if (!vegeta) throw new InfraError('vegeta not found: run `make setup` (builds the pinned Vegeta into .tools/bin)');
  const files = vegetaFiles(cellDir, segment);
  const calledAt = Date.now();
  writeFileSync(files.targets, targetsText(scenario, { url, urlB, host }));
  await preflight(scenario, { url, urlB, host });
  await pause(Math.max(0, calledAt + LOAD_START_MS - Date.now()), signal ?? new AbortController().signal);
  const deadline = calledAt + loadBudget(scenario);
  const attacks = attackPlan(scenario, segment);
  const bins = [];
  const commands = [];
  const startedAt = Date.now();
  let exit = { code: 0, signal: null };
  let usage = null;
  for (const [i, a] of attacks.entries()) {
    if (signal?.aborted) break;
    if (a.gapMs) await pause(a.gapMs, signal);
    const output = join(cellDir, `vegeta-${segment?.count > 1 ? `r${segment.index + 1}-` : ''}${i + 1}.bin`);
    bins.push(output);
    const argv = pinned([vegeta, ...attackArgs(a, { scenario, targets: files.targets, output })]);
    commands.push(commandLine(argv));
    exit = await attackOnce(argv, { files, signal, deadline });
    usage = addUsage(usage, exit.usage);
    if (exit.code !== 0) break;
  }
  const endedAt = Date.now();
  await encode(vegeta, bins, files);
  return {
    exitCode: exit.code ?? 128,
    signal: exit.signal,
    startedAt,
    endedAt,
    command: commands.join(' && '),
    output: files.output,
    log: files.log,
    format: 'vegeta',
    usage,
    sides: urlB ? { a: targetUrl(url, scenario), b: targetUrl(urlB, scenario) } : null,
  };
}

async function attackOnce(argv, { files, signal, deadline }) {
  const child = await startProcess(argv, { env: toolEnv(), logFile: files.log, name: 'vegeta' });
  const usage = sampleUsage(child.pid);
  const onAbort = () => child.kill('SIGINT'); // Vegeta stops and writes what it has
  signal?.addEventListener('abort', onAbort, { once: true });
  let timer;
  const overdue = new Promise((_, reject) => {
    timer = setTimeout(
      () => {
        child.kill('SIGKILL');
        reject(
          new InfraError(`vegeta did not finish within its budget; see ${files.log}`, {
            details: [`command: ${commandLine(argv)}`],
          }),
        );
      },
      Math.max(1000, deadline - Date.now()),
    );
  });
  try {
    const exit = await Promise.race([child.exited, overdue]);
    return { ...exit, usage: usage.stop() };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

// Vegeta's own binary results → `vegeta encode --to json` → one gzip: the documented way
// out of its Go-specific format, and the one the Vegeta reader reads.
async function encode(vegeta, bins, files) {
  if (!bins.length) return;
  const json = `${files.output}.tmp`;
  const argv = [vegeta, 'encode', '--to', 'json', `--output=${json}`, ...bins];
  const child = await startProcess(argv, { env: toolEnv(), logFile: files.log, name: 'vegeta encode' });
  const { code } = await child.exited;
  if (code !== 0)
    throw new InfraError(`vegeta encode exited with code ${code}; see ${files.log} (its results are kept beside it)`, {
      details: [`command: ${commandLine(argv)}`],
    });
  await pipeline(createReadStream(json), createGzip({ level: 1 }), createWriteStream(files.output));
  for (const f of [json, ...bins]) rmSync(f, { force: true });
}

// As the k6 scripts' preflight: a wrong URL costs one request, not a whole run.
async function preflight(scenario, { url, urlB, host }) {
  const timeout = scenarioMs(scenario).timeout;
  for (const u of [url, urlB].filter(Boolean)) {
    const target = targetUrl(u, scenario);
    const status = await getStatus(target, host, timeout).catch((e) => `error ${e.code ?? e.message}`);
    if (status !== 200) throw new InfraError(`preflight: expected 200 from ${target} (Host: ${host}), got ${status}`);
  }
}

function getStatus(url, host, timeout) {
  const get = url.startsWith('https:') ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = get(url, { headers: { Host: host }, timeout, rejectUnauthorized: false, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    });
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'timeout' })));
    req.on('error', reject);
    req.end();
  });
}

/** runners > 1: that many Vegeta processes at rate/n each, started together. */
export async function runVegetaSegments(scenario, opts) {
  const n = scenario.runners ?? 1;
  if (n < 2) return runVegeta(scenario, opts);
  const runs = await Promise.all(
    Array.from({ length: n }, (_, index) => runVegeta(scenario, { ...opts, segment: { index, count: n } })),
  );
  const bad = runs.find((r) => r.exitCode !== 0);
  return {
    exitCode: bad?.exitCode ?? 0,
    startedAt: Math.min(...runs.map((r) => r.startedAt)),
    endedAt: Math.max(...runs.map((r) => r.endedAt)),
    format: 'vegeta',
    runners: runs,
  };
}
