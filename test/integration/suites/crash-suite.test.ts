// The crash suite's reduced form (`npm run suite:crash` runs the whole one): the bot in its own
// process, kill -9'd twice in a row in the middle of a cutover (with the node between its old
// and new kube-proxy) and once in the rollback's revert; every run must end as a run must, with
// no invariant broken, no Slack post made twice, every result posted and nothing left on the
// cluster. Three restarts of the bot are most of its time.
import { describe, expect, it } from 'vitest';
import type { CrashCase } from '../../../suite/crash/cases.js';
import { formatReport } from '../../../suite/crash/report.js';
import { runCrashSuite } from '../../../suite/crash/run-suite.js';

const cases: CrashCase[] = [
  {
    name: 'two kills in a row mid-swap, one in the revert',
    cutover: [{ after: 'switching' }, { after: 'old-pod-gone' }],
    rollback: [{ after: 'revert' }],
  },
];

describe('crash suite (reduced)', () => {
  it('ends every run verified, rolled back or needs-attention, with nothing broken or posted twice', async () => {
    const report = await runCrashSuite({ cases });
    const shown = formatReport(report);
    expect(report.violations, shown).toEqual([]);
    expect(report.duplicatePosts, shown).toEqual([]);
    expect(report.unannounced, shown).toEqual([]);
    expect(report.leftovers, shown).toEqual([]);
    expect({ runs: report.runs, kills: report.kills }, shown).toEqual({ runs: 2, kills: 3 });
    expect(report.outcomes['verified'], shown).toBeGreaterThanOrEqual(1);
    // Each kill of a moving run was followed by the run moving again.
    expect(report.resumeMs, shown).toHaveLength(3);
  }, 120_000);
});
