// The drift guard on the whole bot stack (BullMQ on Redis, the fake Slack, the twin): a node
// migrated by a real cutover, then the original kube-proxy DaemonSet rewritten behind the tool's
// back as a `kubeadm upgrade` does (its node affinity, with the NotIn term, gone), so the
// DaemonSet controller starts a second kube-proxy on the migrated node. One alert in the
// cluster's channel with the repair and a button whose drift id is stored in Redis; the same
// drift again posts nothing; the fix posts "resolved" once; a cluster with no migration posts
// nothing. Schedulers exist per cluster and go with their cluster.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTwin, type Twin } from '@proxy-migrate/twin';
import { eventually, kubectlWith } from '@proxy-migrate/twin/testing';
import { RedisDriftStore } from '../../../src/adapters/drift-store/redis.js';
import { startBot } from '../../../src/cli/runtime.js';
import { loadConfig } from '../../../src/config.js';
import type { DriftCheckResult } from '../../../src/engine/drift-guard.js';
import { ACTION } from '../../../src/interactions/ids.js';
import { botEnv, startHarness, type BotHarness } from '../../helpers/bot-harness.js';
import { kubeProxyPods } from '../../helpers/invariants.js';
import { REDIS_URL } from '../../helpers/redis.js';

let h: BotHarness;
let other: Twin;
let redis: Redis;
let store: RedisDriftStore;
let dirB = '';

function clusterB(extra = ''): string {
  return `  - name: cluster-b
    kubeconfig: ${join(dirB, 'kubeconfig')}
    context: ${other.name}
    channels: [C0BEE]
${extra}`;
}

const ops = () => h.fake.messages.filter((m) => m.channel === 'C0OPS');
const inB = () => h.fake.messages.filter((m) => m.channel === 'C0BEE');

function driftOn(node: string): number {
  return kubeProxyPods(h.twin).filter((p) => p.node === node && !p.terminating).length;
}

function outcome(result: DriftCheckResult): string {
  return result.outcome === 'nothing' && result.decision.kind === 'nothing'
    ? `nothing:${result.decision.reason}`
    : result.outcome;
}

beforeAll(async () => {
  // A second cluster, on a twin of its own with no migration, posting in a channel of its own.
  dirB = await mkdtemp(join(tmpdir(), 'pm-drift-'));
  other = await startTwin({ scenario: 'kubeadm-ipvs' });
  await other.writeKubeconfig(join(dirB, 'kubeconfig'));
  h = await startHarness({ extraClusters: clusterB() });
  redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  store = new RedisDriftStore(redis, h.config.queuePrefix);
}, 60_000);

afterAll(async () => {
  redis?.disconnect();
  await h?.stop();
  await other?.close();
  await rm(dirB, { recursive: true, force: true });
});

describe('drift guard', () => {
  it('schedules a check per cluster every 10 minutes by default, first at start', async () => {
    // Set up in the background at start, so a start without Redis is not held up.
    const schedulers = await eventually('both schedulers', async () => {
      const found = await h.queue.getJobSchedulers(0, -1);
      return found.length === 2 ? found : undefined;
    });
    expect(
      schedulers
        .map((s): unknown[] => [s.id ?? s.key, s.every, s.name, s.template?.data as unknown])
        .sort(),
    ).toEqual([
      ['drift.cluster-a', 600_000, 'drift-check', { cluster: 'cluster-a' }],
      ['drift.cluster-b', 600_000, 'drift-check', { cluster: 'cluster-b' }],
    ]);
    // The first checks ran at once, through the worker; with no migration they posted nothing.
    await eventually('the first scheduled checks', async () =>
      (await h.queue.getJobs(['completed'])).filter((j) => j.name === 'drift-check').length === 2
        ? true
        : undefined,
    );
    expect(ops()).toHaveLength(0);
    expect(outcome(await h.bot.driftCheck('cluster-a'))).toBe('nothing:no-migration');
  });

  it('posts nothing for a migration whose invariants hold', async () => {
    const id = await h.bot.runs.start({
      kind: 'cutover',
      cluster: 'cluster-a',
      node: 'blue-1',
      requester: { kind: 'terminal', user: 'tester' },
      options: {
        autoRollback: true,
        dryRun: false,
        preApproved: { kind: 'terminal', user: 'tester' },
      },
    });
    const run = await h.bot.runs.waitFor(id, 60_000);
    expect(run.outcome, run.reason).toBe('verified');
    // The run ends, then gives the cluster lock back; until then the guard decides nothing.
    const settled = await eventually('the cluster lock to be free', async () => {
      const seen = outcome(await h.bot.driftCheck('cluster-a'));
      return seen === 'nothing:run-in-flight' ? undefined : seen;
    });
    expect(settled).toBe('nothing:unchanged');
    expect(ops()).toHaveLength(0);
  }, 90_000);

  it('alerts once for the DaemonSet rewritten behind its back, with the repair and a button', async () => {
    const kubectl = kubectlWith(join(h.dir, 'kubeconfig.yaml'), h.dir);
    // What a kubeadm upgrade does: the DaemonSet is written afresh, without the NotIn term.
    const patched = await kubectl(
      'patch',
      'daemonset',
      'kube-proxy',
      '-n',
      'kube-system',
      '--type=json',
      '-p',
      '[{"op":"remove","path":"/spec/template/spec/affinity"}]',
    );
    expect(patched.code, patched.stderr).toBe(0);
    // The DaemonSet controller puts the original's pod back on the migrated node.
    await eventually('a second kube-proxy on blue-1', () =>
      driftOn('blue-1') === 2 ? true : undefined,
    );

    const result = await h.bot.driftCheck('cluster-a');
    expect(result.outcome).toBe('alert');
    expect(ops()).toHaveLength(1);
    const alert = ops()[0]!;
    expect(alert.thread_ts).toBeUndefined();
    expect(alert.text).toMatch(/^Drift on cluster-a: /);
    const shown = JSON.stringify(alert.blocks);
    expect(shown).toContain('*Drift* · cluster-a · 2 invariants broken');
    expect(shown).toContain('*original-affinity* · DaemonSet kube-system/kube-proxy');
    expect(shown).toContain('*two-kube-proxies* · blue-1');
    expect(shown).toContain('NotIn [switching, nftables]');
    expect(shown).toContain('proxy-migrate rollback cluster-a blue-1');

    // One button per drift; its value is a drift id whose details wait in Redis, with a TTL.
    const buttons = (alert.blocks ?? []).flatMap((b) => {
      const accessory = (b as { accessory?: { action_id: string; value: string } }).accessory;
      return accessory === undefined ? [] : [accessory];
    });
    expect(buttons.map((b) => b.action_id)).toEqual([ACTION.repairDrift, ACTION.repairDrift]);
    const stored = await Promise.all(buttons.map((b) => store.drift(b.value)));
    expect(stored.map((s) => s?.invariant).sort()).toEqual([
      'original-affinity',
      'two-kube-proxies',
    ]);
    const record = await store.record('cluster-a');
    for (const s of stored) {
      expect(s).toMatchObject({
        cluster: 'cluster-a',
        channel: 'C0OPS',
        ts: alert.ts,
        fingerprint: record?.fingerprint,
      });
      expect(s?.repair.length).toBeGreaterThan(20);
      const ttl = await redis.pttl(`${h.config.queuePrefix}:drift:id:${s!.id}`);
      expect(ttl).toBeGreaterThan(23 * 60 * 60_000);
    }
    expect(JSON.stringify(stored)).not.toMatch(/xoxb|hooks/);
  });

  it('posts nothing when the same drift is found again, by hand or by the scheduled job', async () => {
    expect(outcome(await h.bot.driftCheck('cluster-a'))).toBe('nothing:unchanged');
    // The job the scheduler makes, through the worker.
    const job = await h.queue.add('drift-check', { cluster: 'cluster-a' });
    await eventually('the drift-check job', async () =>
      (await job.getState()) === 'completed' ? true : undefined,
    );
    expect(ops()).toHaveLength(1);
  });

  it('posts nothing for a cluster with no migration in progress', async () => {
    expect(outcome(await h.bot.driftCheck('cluster-b'))).toBe('nothing:no-migration');
    expect(inB()).toHaveLength(0);
  });

  it('says resolved once when the DaemonSet is repaired, and forgets the drift', async () => {
    const before = ops()[0]!;
    const ids = (before.blocks ?? []).flatMap((b) => {
      const accessory = (b as { accessory?: { value: string } }).accessory;
      return accessory === undefined ? [] : [accessory.value];
    });
    const kubectl = kubectlWith(join(h.dir, 'kubeconfig.yaml'), h.dir);
    const fixed = await kubectl(
      'patch',
      'daemonset',
      'kube-proxy',
      '-n',
      'kube-system',
      '--type=merge',
      '-p',
      JSON.stringify({
        spec: {
          template: {
            spec: {
              affinity: {
                nodeAffinity: {
                  requiredDuringSchedulingIgnoredDuringExecution: {
                    nodeSelectorTerms: [
                      {
                        matchExpressions: [
                          {
                            key: 'proxy-migrate.io/mode',
                            operator: 'NotIn',
                            values: ['switching', 'nftables'],
                          },
                        ],
                      },
                    ],
                  },
                },
              },
            },
          },
        },
      }),
    );
    expect(fixed.code, fixed.stderr).toBe(0);
    await eventually('the original’s pod to leave blue-1', () =>
      driftOn('blue-1') === 1 ? true : undefined,
    );
    expect((await h.bot.driftCheck('cluster-a')).outcome).toBe('resolved');
    expect(ops()).toHaveLength(2);
    expect(ops()[1]?.text).toMatch(/^Drift resolved on cluster-a: .*hold again\.$/);
    expect(await store.record('cluster-a')).toBeUndefined();
    for (const id of ids) expect(await store.drift(id)).toBeUndefined();

    expect(outcome(await h.bot.driftCheck('cluster-a'))).toBe('nothing:unchanged');
    expect(ops()).toHaveLength(2);
  });
});

describe('drift guard schedulers', () => {
  it('removes the scheduler and state of a cluster gone from the clusters file, and honours driftCheckMinutes', async () => {
    // The next start reads a clusters file where cluster-a's guard runs every 3 minutes and a
    // cluster that was there before is gone.
    await h.queue.upsertJobScheduler(
      'drift.cluster-gone',
      { every: 600_000 },
      { name: 'drift-check', data: { cluster: 'cluster-gone' } },
    );
    await store.saveRecord(
      'cluster-gone',
      {
        fingerprint: 'f',
        drifts: [{ key: 'k', invariant: 'i', subject: 's', id: 'dr-gone' }],
        changedAt: '',
      },
      60_000,
    );
    await store.saveDrifts(
      [
        {
          id: 'dr-gone',
          cluster: 'cluster-gone',
          invariant: 'i',
          subject: 's',
          message: 'm',
          repair: 'r',
          fingerprint: 'f',
          channel: 'C0OPS',
          ts: '1',
          postedAt: '',
        },
      ],
      60_000,
    );
    const file = join(h.dir, 'clusters-next.yaml');
    await writeFile(
      file,
      `clusters:
  - name: cluster-a
    kubeconfig: ./kubeconfig.yaml
    context: ${h.twin.name}
    channels: [C0OPS]
    driftCheckMinutes: 3
${clusterB('    driftCheckMinutes: 0\n')}`,
    );
    const config = loadConfig(
      { ...botEnv(h.fake, file, h.config.queuePrefix), SHUTDOWN_GRACE_SECONDS: '2' },
      'worker',
    );
    const next = await startBot(config, h.log.logger, {
      host: '127.0.0.1',
      webClientOptions: { retryConfig: { retries: 0 } },
    });
    try {
      const schedulers = await eventually('cluster-gone’s scheduler to go', async () => {
        const found = await h.queue.getJobSchedulers(0, -1);
        return found.some((f) => (f.id ?? f.key) === 'drift.cluster-gone') ? undefined : found;
      });
      expect(schedulers.map((s) => [s.id ?? s.key, s.every])).toEqual([
        ['drift.cluster-a', 180_000],
      ]);
      await eventually('cluster-gone’s record to go', async () =>
        (await store.record('cluster-gone')) === undefined ? true : undefined,
      );
      expect(await store.drift('dr-gone')).toBeUndefined();
      expect((await next.driftCheck('cluster-b')).outcome).toBe('off');
    } finally {
      await next.stop();
    }
  });
});
