// Which requests are "the same" and so one run: the runbook, cluster, node, channel, options and
// the cluster's configuration; never who asked.
import { describe, expect, it } from 'vitest';
import { clusterConfig } from '../../../src/config.js';
import { runKey, type RunKeyInput } from '../../../src/core/run-key.js';

const cluster = clusterConfig({ name: 'cluster-a', approvers: { users: ['U0BOB'] } });
const base: RunKeyInput = {
  kind: 'preflight',
  cluster,
  options: { autoRollback: false, dryRun: false, channel: 'C0OPS' },
};

describe('runKey', () => {
  it('is the same for the same request, whoever asks and in whatever key order', () => {
    const again: RunKeyInput = {
      cluster: clusterConfig({ approvers: { users: ['U0BOB'] }, name: 'cluster-a' }),
      options: {
        channel: 'C0OPS',
        dryRun: false,
        autoRollback: false,
        preApproved: { kind: 'slack', userId: 'U0BOB', teamId: 'T0' },
      },
      kind: 'preflight',
    };
    expect(runKey(again)).toBe(runKey(base));
    expect(runKey(base)).toMatch(/^preflight\.cluster-a\.[0-9a-f]{16}$/);
  });

  it('differs by runbook, node, channel, options, facts and cluster configuration', () => {
    const keys = [
      base,
      { ...base, kind: 'cutover' as const, node: 'blue-1' },
      { ...base, kind: 'cutover' as const, node: 'blue-2' },
      { ...base, options: { ...base.options, channel: 'C0OTHER' } },
      { ...base, options: { ...base.options, dryRun: true } },
      { ...base, facts: { probe: 'none' } },
      { ...base, cluster: clusterConfig({ name: 'cluster-a', approvers: { users: ['U0EVE'] } }) },
      { ...base, cluster: clusterConfig({ name: 'cluster-b', approvers: { users: ['U0BOB'] } }) },
    ].map(runKey);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys[1]).toMatch(/^cutover\.cluster-a\.blue-1\./);
  });
});
