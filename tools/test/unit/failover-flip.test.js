// The failover test's exact level (compare/failover-flip.js): its p-value is the share of
// the kills' sign flips whose statistic is at least as extreme — checked here against every
// flip of small sets, and against the Bonferroni bound it replaces.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { exactFailoverP, flipDistribution, killVotes, MAX_CELL_STEPS } from '../../src/compare/failover-flip.js';
import { heldUpVotes, signTest, twoParts, withHeldUp } from '../../src/compare/failover.js';
import { rng } from '../helpers/synthetic.js';

const floored = (ms) => Math.max(ms, 10);

// Random kills as failoverEvidence gives them: a share hit both, some one side, some none.
function randomKills(r, n, lean = 0) {
  const base = [];
  const head = [];
  for (let k = 0; k < n; k++) {
    const x = r();
    const hitB = x < 0.8 || (x < 0.9 && r() < 0.5 - lean);
    const hitH = x < 0.8 || (x >= 0.8 && x < 0.9 && !hitB) || (x >= 0.9 && r() < lean);
    const e = 300 * Math.exp(r());
    const held = (f) => 1 + Math.floor(10 * r() * f);
    const side = (hit, f) =>
      hit ? { hit, exposureMs: Math.round(e * f), heldUp: held(f) } : { hit, exposureMs: 0, heldUp: 0 };
    base.push(side(hitB, 1));
    head.push(side(hitH, Math.exp(lean + 0.3 * (r() - 0.5))));
  }
  const kills = { total: n, both: 0, baseOnly: 0, headOnly: 0, neither: 0 };
  const d = [];
  base.forEach((b, i) => {
    const h = head[i];
    kills[b.hit && h.hit ? 'both' : b.hit ? 'baseOnly' : h.hit ? 'headOnly' : 'neither']++;
    if (b.hit && h.hit) d.push(Math.log(floored(h.exposureMs) / floored(b.exposureMs)));
  });
  return { base, head, kills, d };
}

const bonferroni = (ev, alpha) => withHeldUp(twoParts(ev.kills, signTest(ev.d), alpha), heldUpVotes(ev), alpha);
// The parts the gate keeps at α: the exact test combines those, and no flip changes them.
const used = (ev, alpha) => bonferroni(ev, alpha).parts.map((x) => x.name);

test('failover-flip: over every sign flip of a kill set, p ≤ α in at most α of them', () => {
  const r = rng(11);
  for (let s = 0; s < 6; s++) {
    const ev = randomKills(r, 13);
    const votes = killVotes(ev, floored);
    const parts = used(ev, 0.05);
    const n = votes.length;
    const ps = [];
    for (let mask = 0; mask < 2 ** n; mask++)
      ps.push(
        exactFailoverP(
          votes.map((v, i) => (mask & (1 << i) ? v.map((x) => -x) : v)),
          parts,
        ).pWorse,
      );
    for (const alpha of [0.002, 0.01, 0.05, 0.1, 0.3]) {
      const share = ps.filter((p) => p <= alpha).length / ps.length;
      assert.ok(share <= alpha + 1e-12, `set ${s}: p ≤ ${alpha} in ${share} of the flips`);
    }
    // The recorded set's p-value is the share of flips at least as extreme: its own rank.
    const own = ps[0];
    assert.ok(Math.abs(ps.filter((p) => p <= own * (1 + 1e-9)).length / ps.length - own) < 1e-9);
  }
});

test('failover-flip: never above the Bonferroni bound it replaces, and below it where the parts agree', () => {
  const r = rng(5);
  let lower = 0;
  for (let s = 0; s < 200; s++) {
    const ev = randomKills(r, 20 + Math.floor(40 * r()), s % 2 ? 0.25 : 0);
    const old = bonferroni(ev, 0.05);
    const exact = exactFailoverP(
      killVotes(ev, floored),
      old.parts.map((x) => x.name),
    );
    assert.ok(exact.pWorse <= old.pWorse * (1 + 1e-9), `set ${s}: ${exact.pWorse} > ${old.pWorse}`);
    assert.ok(exact.pBetter <= old.pBetter * (1 + 1e-9));
    assert.ok(exact.minP <= old.minP * (1 + 1e-9));
    if (old.parts.some((x) => x.name === 'heldUp') && exact.pWorse < 0.75 * old.pWorse) lower++;
  }
  assert.ok(lower >= 40, `exact well below Bonferroni in ${lower} of 200`);
});

test('failover-flip: its work is bounded — past MAX_CELL_STEPS no grid (the gate keeps Bonferroni)', () => {
  const side = Math.ceil(Math.cbrt(MAX_CELL_STEPS / 300));
  const votes = Array.from({ length: 3 * side }, (_, i) => [i % 3 === 0 ? 1 : 0, i % 3 === 1 ? 1 : 0, 1]);
  assert.equal(flipDistribution(votes), null);
  assert.equal(exactFailoverP(votes, ['oneSided', 'bothSided', 'heldUp']), null);
  const small = flipDistribution(votes.slice(0, 9));
  assert.ok(Math.abs(small.p.reduce((a, x) => a + x, 0) - 1) < 1e-12);
});
