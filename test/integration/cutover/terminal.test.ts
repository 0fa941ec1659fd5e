// Cutover and rollback from a terminal, through the real Kubernetes client, on the twin: a
// cutover verifies and its rollback verifies; a node whose host kernel is older than its Node
// object says is refused with nothing written; a kube-proxy that fails only in nftables mode ends
// rolled back and verified, with the evidence; --dry-run writes nothing. The safety invariants
// are checked after each.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resourceFor, startTwin, type Twin } from '@proxy-migrate/twin';
import type { RunResultJson } from '../../../src/views/run-result.js';
import { cliIn } from '../../helpers/cli.js';
import { assertInvariants, kubeProxyPods } from '../../helpers/invariants.js';

let twin: Twin | undefined;
let dir: string | undefined;

async function setUp(scenario: string, extra = '', verifyDeadlineSeconds = 8) {
  twin = await startTwin({ scenario, speed: 10 });
  dir = await mkdtemp(join(tmpdir(), 'pm-cutover-'));
  const kubeconfig = join(dir, 'kubeconfig');
  await twin.writeKubeconfig(kubeconfig);
  // A failing verification keeps trying this long (real time) before it rolls back.
  await writeFile(
    join(dir, 'clusters.yaml'),
    `clusters:\n  - name: ${twin.name}\n    kubeconfig: ./kubeconfig\n    context: ${twin.name}\n    verifyDeadlineSeconds: ${verifyDeadlineSeconds}\n${extra}`,
  );
  const cli = cliIn(join(dir, 'runs'), { CLUSTERS_FILE: join(dir, 'clusters.yaml') });
  const on: string[] = [];
  return { twin, cli, on };
}

afterEach(async () => {
  await twin?.close();
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  twin = undefined;
  dir = undefined;
});

const parse = (stdout: string): RunResultJson => JSON.parse(stdout) as RunResultJson;

function labelOf(t: Twin, node: string): string | undefined {
  const n = t.store.get(resourceFor('nodes'), undefined, node);
  return n?.metadata.labels?.['proxy-migrate.io/mode'];
}

describe('cutover and rollback in a terminal', () => {
  it('moves blue-1 to nftables with evidence, then back to IPVS, both verified', async () => {
    const { twin, cli, on } = await setUp('kubeadm-ipvs');
    const before = kubeProxyPods(twin);
    const there = await cli.run('cutover', twin.name, 'blue-1', '--yes', '--format', 'json', ...on);
    expect(there.code, there.stderr).toBe(0);
    const result = parse(there.stdout);
    expect(result).toMatchObject({ cluster: twin.name, node: 'blue-1', outcome: 'verified' });
    // The NotIn term is a template change: OnDelete first, or RollingUpdate restarts every node's
    // kube-proxy (assertInvariants below fails on any untouched pod restarted or replaced).
    expect(result.plan?.actions[0]).toMatch(/updateStrategy to OnDelete/);
    const probes = new Map(result.evidence.map((e) => [e.probe, e.ok]));
    for (const probe of [
      'nft-table',
      'ipvs-empty',
      'kube-ipvs0-gone',
      'nftables-log',
      'healthz',
      'nftables-sync-failures',
      'clusterip-from-node',
      'nodeport-from-node',
      'nodeport-from-peer',
      'sync-p99',
      'ipvsadm-save',
      'iptables-save',
    ])
      expect(probes.get(probe), probe).toBe(true);
    expect(result.steps.map((s) => s.id)).toContain('new-pod-ready');
    expect(labelOf(twin, 'blue-1')).toBe('nftables');
    expect(kubeProxyPods(twin).find((p) => p.node === 'blue-1')?.owner).toBe('kube-proxy-nftables');
    assertInvariants(twin, { before, touched: ['blue-1'], runs: await cli.runs() });

    const back = await cli.run('rollback', twin.name, 'blue-1', '--yes', '--format', 'json', ...on);
    expect(back.code, back.stderr).toBe(0);
    expect(parse(back.stdout)).toMatchObject({ outcome: 'verified', node: 'blue-1' });
    expect(new Set(parse(back.stdout).evidence.map((e) => `${e.probe}:${e.ok}`))).toEqual(
      new Set([
        'ipvs-services:true',
        'kube-ipvs0-present:true',
        'nft-table-gone:true',
        'nft-table-ip6-gone:true',
        'ipvs-log:true',
        'healthz:true',
        'clusterip-from-node:true',
        'nodeport-from-node:true',
        'nodeport-from-peer:true',
      ]),
    );
    expect(labelOf(twin, 'blue-1')).toBeUndefined();
    expect(kubeProxyPods(twin).find((p) => p.node === 'blue-1' && !p.terminating)?.owner).toBe(
      'kube-proxy',
    );
    assertInvariants(twin, { before, touched: ['blue-1'], runs: await cli.runs() });

    const status = await cli.run('status', twin.name, '--format', 'json', ...on);
    expect(status.code, status.stdout).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ byMode: { ipvs: 6 }, violations: [] });
  });

  it('moves edge-1 (DMZ NIC and a VIP kubelet does not report) and NodePorts keep answering on every host address', async () => {
    // The pre-flight warns that nftables' default "primary" would drop 192.168.50.21 and
    // 10.0.100.10; the canary's nodePortAddresses (0.0.0.0/0, ::/0) keeps them answering.
    // traps' 1,000+ Services make nftables syncs slow on a busy machine: more time to see a fresh one.
    const { twin, cli, on } = await setUp('traps', '', 30);
    const before = kubeProxyPods(twin);
    const there = await cli.run('cutover', twin.name, 'edge-1', '--yes', '--format', 'json', ...on);
    expect(there.code, there.stderr + there.stdout).toBe(0);
    const result = parse(there.stdout);
    expect(result).toMatchObject({ node: 'edge-1', outcome: 'verified' });
    const fromPeer = result.evidence.filter((e) => e.probe === 'nodeport-from-peer');
    expect(fromPeer.map((e) => e.ok)).not.toContain(false);
    const tried = JSON.stringify(fromPeer);
    for (const address of ['10.0.4.21', '192.168.50.21', '10.0.100.10'])
      expect(tried, address).toContain(address);
    assertInvariants(twin, { before, touched: ['edge-1'], runs: await cli.runs() });
  }, 90_000);

  it('adds the NotIn expression to every node-selector term (terms are ORed), so the original leaves the node', async () => {
    const { twin, cli, on } = await setUp('kubeadm-ipvs');
    // An EKS-style original with two terms. OnDelete already, so this edit restarts nothing.
    const dss = resourceFor('daemonsets');
    const ds = twin.store.get(dss, 'kube-system', 'kube-proxy')!;
    const spec = ds['spec'] as { template: { spec: Record<string, unknown> } } & Record<
      string,
      unknown
    >;
    const terms = [
      { matchExpressions: [{ key: 'kubernetes.io/os', operator: 'In', values: ['linux'] }] },
      { matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'Exists' }] },
    ];
    twin.registry.update(
      dss,
      {
        ...ds,
        spec: {
          ...spec,
          updateStrategy: { type: 'OnDelete' },
          template: {
            ...spec.template,
            spec: {
              ...spec.template.spec,
              affinity: {
                nodeAffinity: {
                  requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms },
                },
              },
            },
          },
        },
      },
      undefined,
    );
    const before = kubeProxyPods(twin);
    const there = await cli.run('cutover', twin.name, 'blue-1', '--yes', '--format', 'json', ...on);
    expect(there.code, there.stderr + there.stdout).toBe(0);
    expect(parse(there.stdout).plan?.actions.join('\n')).toMatch(
      /required node affinity to 2 terms/,
    );
    const after = twin.store.get(dss, 'kube-system', 'kube-proxy')!;
    const got = (
      after['spec'] as {
        template: {
          spec: {
            affinity: {
              nodeAffinity: {
                requiredDuringSchedulingIgnoredDuringExecution: {
                  nodeSelectorTerms: { matchExpressions: { key: string; operator: string }[] }[];
                };
              };
            };
          };
        };
      }
    ).template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution
      .nodeSelectorTerms;
    expect(got).toHaveLength(2);
    for (const term of got)
      expect(term.matchExpressions).toContainEqual(
        expect.objectContaining({ key: 'proxy-migrate.io/mode', operator: 'NotIn' }),
      );
    // Exactly one kube-proxy on blue-1, the canary's: a NotIn in a third term would have left both.
    assertInvariants(twin, { before, touched: ['blue-1'], runs: await cli.runs() });
    expect(kubeProxyPods(twin).filter((p) => p.node === 'blue-1' && !p.terminating)).toEqual([
      expect.objectContaining({ owner: 'kube-proxy-nftables' }),
    ]);
  });

  it('refuses a node whose host booted an older kernel than its Node object says, writing nothing', async () => {
    // traps' 1,000+ Services make nftables syncs slow on a busy machine: more time to see a fresh one.
    const { twin, cli, on } = await setUp('traps', '', 30);
    const before = kubeProxyPods(twin);
    twin.stats.reset();
    const refused = await cli.run(
      'cutover',
      twin.name,
      'legacy-3',
      '--yes',
      '--format',
      'json',
      ...on,
    );
    expect(refused.code).toBe(2);
    const result = parse(refused.stdout);
    expect(result.outcome).toBe('refused');
    expect(result.reason).toMatch(/kernel-version: .*legacy-3.* on kernel 5\.4/);
    // The only writes are the node pre-flight's probe pod and its exec sessions.
    const writes = twin.stats.writes().filter((w) => !w.dryRun);
    expect(writes.every((w) => w.resource === 'pods' || w.resource === 'pods/exec')).toBe(true);
    expect(labelOf(twin, 'legacy-3')).toBeUndefined();
    assertInvariants(twin, { before, touched: [], runs: await cli.runs() });
  });

  it(
    'rolls back a node whose kube-proxy fails only in nftables mode, and says why',
    { timeout: 90_000 },
    async () => {
      // traps' 1,000+ Services make nftables syncs slow on a busy machine: more time to see a fresh one.
      const { twin, cli, on } = await setUp('traps', '', 30);
      const before = kubeProxyPods(twin);
      const rolled = await cli.run(
        'cutover',
        twin.name,
        'modern-3',
        '--yes',
        '--format',
        'json',
        ...on,
      );
      expect(rolled.code, rolled.stderr).toBe(4);
      const result = parse(rolled.stdout);
      expect(result.outcome).toBe('rolled-back');
      // Which probes see the failure first depends on timing (the log's sync error, the failure
      // counter, the missing table): the reason names the failing node and the sync failure.
      expect(result.reason).toMatch(
        /nftables verification failed on modern-3: .*(nftables-sync-failures|nftables sync failed)/,
      );
      const failed = result.evidence.filter((e) => !e.ok).map((e) => e.probe);
      expect(failed.some((p) => p === 'nftables-sync-failures' || p === 'nftables-log')).toBe(true);
      expect(result.steps.map((s) => `${s.id}:${s.status}`)).toEqual(
        expect.arrayContaining([
          'verify:failed',
          'rollback/revert:done',
          'rollback/verify-back:done',
        ]),
      );
      expect(labelOf(twin, 'modern-3')).toBeUndefined();
      assertInvariants(twin, { before, touched: ['modern-3'], runs: await cli.runs() });
    },
  );

  it('rolls back a node whose new kube-proxy rejects its configuration, with its log as evidence', async () => {
    const { twin, cli, on } = await setUp('traps', '    swapDeadlineSeconds: 10\n');
    // v1.32 still lets NFTablesProxyMode be turned off: IPVS runs on, nftables mode refuses to start.
    const cms = resourceFor('configmaps');
    const cm = twin.store.get(cms, 'kube-system', 'kube-proxy')!;
    const data = cm['data'] as Record<string, string>;
    twin.registry.update(
      cms,
      {
        ...cm,
        data: {
          ...data,
          'config.conf': data['config.conf']!.replace(
            /^mode:/m,
            'featureGates:\n  NFTablesProxyMode: false\nmode:',
          ),
        },
      },
      undefined,
    );
    // kube-proxy exits when its config file changes, so every pod restarts once: wait for that
    // to settle, or the invariants would blame the run for it.
    const mounted = kubeProxyPods(twin).filter((p) => p.owner === 'kube-proxy');
    await vi.waitFor(
      () => {
        const now = kubeProxyPods(twin).filter((p) => p.owner === 'kube-proxy');
        for (const p of mounted) {
          const n = now.find((q) => q.uid === p.uid);
          expect(n?.restarts ?? 0).toBeGreaterThan(p.restarts);
          expect(n?.ready).toBe(p.ready);
        }
      },
      { timeout: 60_000, interval: 250 },
    );
    const before = kubeProxyPods(twin);
    const rolled = await cli.run(
      'cutover',
      twin.name,
      'general-1',
      '--yes',
      '--format',
      'json',
      ...on,
    );
    expect(rolled.code, rolled.stderr + rolled.stdout).toBe(4);
    const result = parse(rolled.stdout);
    expect(result.reason).toMatch(/waited 10 s for the canary kube-proxy pod to be Ready/);
    const why = result.evidence.find((e) => e.probe === 'kube-proxy-not-ready');
    expect(why?.output).toContain('feature gate NFTablesProxyMode must be enabled');
    expect(labelOf(twin, 'general-1')).toBeUndefined();
    assertInvariants(twin, { before, touched: ['general-1'], runs: await cli.runs() });
  }, 90_000);

  it('refuses a node served by another kube-proxy DaemonSet, which the canary does not clone', async () => {
    // traps' 1,000+ Services make nftables syncs slow on a busy machine: more time to see a fresh one.
    const { twin, cli, on } = await setUp('traps', '', 30);
    const before = kubeProxyPods(twin);
    const refused = await cli.run(
      'cutover',
      twin.name,
      'storage-1',
      '--yes',
      '--format',
      'json',
      ...on,
    );
    expect(refused.code).toBe(2);
    expect(parse(refused.stdout).reason).toMatch(
      /storage-1 runs kube-proxy from DaemonSet kube-proxy-storage, not kube-proxy/,
    );
    assertInvariants(twin, { before, touched: [], runs: await cli.runs() });
  });

  it('--dry-run confirms the plan with the API server and writes nothing', async () => {
    const { twin, cli, on } = await setUp('kubeadm-ipvs');
    twin.stats.reset();
    const dry = await cli.run(
      'cutover',
      twin.name,
      'blue-2',
      '--dry-run',
      '--format',
      'json',
      ...on,
    );
    expect(dry.code, dry.stderr).toBe(0);
    expect(parse(dry.stdout)).toMatchObject({
      outcome: 'verified',
      reason: expect.stringMatching(/^dry run/),
    });
    const writes = twin.stats.writes();
    const real = writes.filter(
      (w) => !w.dryRun && w.resource !== 'pods' && w.resource !== 'pods/exec',
    );
    expect(real).toEqual([]);
    expect(writes.filter((w) => w.dryRun).map((w) => `${w.verb} ${w.resource}`)).toEqual(
      expect.arrayContaining([
        'patch daemonsets',
        'create configmaps',
        'create daemonsets',
        'patch nodes',
      ]),
    );
    expect(labelOf(twin, 'blue-2')).toBeUndefined();
  });

  it('asks for --yes without a terminal, refuses an unknown node and a bad QUEUE_PREFIX before any write', async () => {
    const { twin, cli, on } = await setUp('kubeadm-ipvs');
    const noTty = await cli.run('cutover', twin.name, 'blue-1', ...on);
    expect(noTty.code).toBe(64);
    expect(noTty.stderr).toContain('pass --yes');
    const unknown = await cli.run(
      'cutover',
      twin.name,
      'no-such-node',
      '--yes',
      '--format',
      'json',
      ...on,
    );
    expect(unknown.code).toBe(2);
    expect(parse(unknown.stdout).reason).toMatch(/node no-such-node does not exist/);
    const badPrefix = cliIn(join(dir!, 'runs'), {
      CLUSTERS_FILE: join(dir!, 'clusters.yaml'),
      QUEUE_PREFIX: 'two words',
    });
    const config = await badPrefix.run('cutover', twin.name, 'blue-1', '--yes', ...on);
    expect(config.code).toBe(78);
    expect(config.stderr).toMatch(/QUEUE_PREFIX.*may hold only letters/);
    expect(labelOf(twin, 'blue-1')).toBeUndefined();
  });
});
