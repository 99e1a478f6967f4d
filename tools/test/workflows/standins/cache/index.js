// actions/cache stand-in: always a miss (cache-hit false, nothing saved), which the real
// action's documented contract allows — a job must work from an empty cache. What a warm
// cache would hold (pinned tools) the test seeds into the tree it checks out.
import * as core from '@actions/core';

core.setOutput('cache-hit', 'false');
core.info(`cache stand-in: miss for key ${core.getInput('key')} (nothing is cached between act runs)`);
