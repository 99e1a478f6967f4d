// actions/setup-node stand-in: the host's node is used (said when older than asked).
import * as core from '@actions/core';

const want = core.getInput('node-version');
const major = process.versions.node.split('.')[0];
if (want && Number(major) < Number(String(want).split('.')[0]))
  core.warning(`setup-node stand-in: node ${want} asked, the host's ${process.versions.node} runs the steps`);
core.setOutput('node-version', `v${process.versions.node}`);
