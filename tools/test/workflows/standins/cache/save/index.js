// actions/cache/save stand-in: saves nothing (the restore stand-in always misses).
import * as core from '@actions/core';

core.info(`cache/save stand-in: ${core.getInput('path')} not kept (key ${core.getInput('key')})`);
