// actions/cache/restore stand-in: always a miss, as the cache stand-in (../index.js): a job
// must work from an empty cache, which the real action's contract allows.
import * as core from '@actions/core';

core.setOutput('cache-hit', 'false');
core.info(`cache/restore stand-in: miss for key ${core.getInput('key')} (nothing is cached between act runs)`);
