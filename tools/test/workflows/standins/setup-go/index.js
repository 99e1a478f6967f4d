// actions/setup-go stand-in: the host's go is used (its version said in the log).
import * as core from '@actions/core';
import { spawnSync } from 'node:child_process';

const r = spawnSync('go', ['version'], { encoding: 'utf8' });
if (r.status !== 0) core.setFailed('setup-go stand-in: no go on PATH');
else core.info(`setup-go stand-in: ${r.stdout.trim()} (asked: ${core.getInput('go-version') || 'any'})`);
