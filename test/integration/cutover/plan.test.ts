// `proxy-migrate plan` from a terminal, through the real Kubernetes client, on the twin: the plan
// people approve (actions, diffs, hash, node order) is computed from the live objects and every
// write is sent only as a server-side dry run, so planning a production cluster persists nothing.
// The hash follows the DaemonSet's generation (a change by anyone in between invalidates an
// approval), and a platform that owns kube-proxy is told so before anyone asks to cut over.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTwin, type Twin, type WriteRecord } from '@proxy-migrate/twin';
import { kubectlWith } from '@proxy-migrate/twin/testing';
import { cliIn } from '../../helpers/cli.js';

let twin: Twin | undefined;
let dir: string | undefined;

async function setUp(scenario: string) {
  twin = await startTwin({ scenario, speed: 10 });
  dir = await mkdtemp(join(tmpdir(), 'pm-plan-'));
  const kubeconfig = join(dir, 'kubeconfig');
  await twin.writeKubeconfig(kubeconfig);
  await writeFile(
    join(dir, 'clusters.yaml'),
    `clusters:\n  - name: ${twin.name}\n    kubeconfig: ./kubeconfig\n    context: ${twin.name}\n    poolLabel: node-pool\n`,
  );
  const cli = cliIn(join(dir, 'runs'), { CLUSTERS_FILE: join(dir, 'clusters.yaml') });
  const kubectl = kubectlWith(kubeconfig, dir);
  return { twin, cli, kubectl };
}

afterEach(async () => {
  await twin?.close();
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  twin = undefined;
  dir = undefined;
});

interface PlanJson {
  cluster: string;
  node?: string;
  hash: string;
  platform: string;
  canary: { allowed: boolean; reason: string; remedy?: string; commands: string[] };
  actions: string[];
  dryRun: string | string[];
  changes: string[];
  dropped: string[];
  diffs: { title: string; diff: string }[];
  order: { node: string; pool: string; step: string; blockedBy: string[] }[];
}

const parse = (stdout: string): PlanJson => JSON.parse(stdout) as PlanJson;
const shape = (w: WriteRecord) => `${w.verb} ${w.resource}${w.dryRun ? ' (dry run)' : ''}`;

describe('plan in a terminal', () => {
  it('shows the shared objects, their diffs and the node order, and persists nothing', async () => {
    const { twin, cli } = await setUp('traps');
    const writesBefore = twin.stats.writes().length;
    const out = await cli.run('plan', twin.name, '--format', 'json');
    expect(out.code, out.stderr).toBe(0);
    const plan = parse(out.stdout);
    expect(plan.hash).toMatch(/^[0-9a-f]{7}$/);
    expect(plan.canary.allowed).toBe(true);
    // OnDelete comes first: the NotIn term is a template change, which under RollingUpdate would
    // restart every node's kube-proxy at once.
    expect(plan.actions).toEqual([
      expect.stringMatching(/^set DaemonSet kube-system\/kube-proxy updateStrategy to OnDelete/),
      expect.stringMatching(/required node affinity .*proxy-migrate\.io\/mode=switching/),
      expect.stringMatching(/^create ConfigMap kube-system\/kube-proxy-nftables/),
      expect.stringMatching(/^create DaemonSet kube-system\/kube-proxy-nftables/),
    ]);
    expect(plan.dryRun).toMatch(/every write accepted/);
    expect(plan.changes).toContain('mode: ipvs → nftables');
    expect(plan.dropped.some((d) => d.startsWith('ipvs.scheduler: lc'))).toBe(true);
    expect(plan.diffs).toHaveLength(4);
    const configDiff = plan.diffs[2]?.diff ?? '';
    expect(configDiff).toContain('-    mode: ipvs');
    expect(configDiff).toContain('+    mode: nftables');
    // traps' nodes run kernels before 6.1: the new ConfigMap turns tcpBeLiberal on.
    expect(configDiff).toContain('+      tcpBeLiberal: true');
    expect(plan.diffs[0]?.diff).toContain('+    type: OnDelete');

    // One canary per pool first, then the pools, blocked nodes last with their reasons.
    const steps = plan.order.map((o) => o.step);
    const lastCanary = steps.lastIndexOf('canary');
    expect(steps.indexOf('pool')).toBeGreaterThan(lastCanary);
    expect(steps.slice(steps.indexOf('blocked')).every((s) => s === 'blocked')).toBe(true);
    const canaries = plan.order.filter((o) => o.step === 'canary');
    expect(new Set(canaries.map((o) => o.pool)).size).toBe(canaries.length);
    const legacy1 = plan.order.find((o) => o.node === 'legacy-1');
    expect(legacy1?.step).toBe('blocked');
    expect(legacy1?.blockedBy.join()).toMatch(/^kernel-version: /);
    expect(canaries.find((o) => o.pool === 'legacy')?.node).toBe('legacy-3');
    expect(plan.order.map((o) => o.node).sort()).toHaveLength(14);

    // Every write reached the API server as a dry run, and only those four.
    const writes = twin.stats.writes().slice(writesBefore);
    expect(writes.map(shape)).toEqual([
      'patch daemonsets (dry run)',
      'patch daemonsets (dry run)',
      'create configmaps (dry run)',
      'create daemonsets (dry run)',
    ]);
    expect(writes.map((w) => w.code)).toEqual([200, 200, 201, 201]);
  });

  it('plans one node with its label steps, as text a person reads', async () => {
    const { twin, cli } = await setUp('traps');
    const writesBefore = twin.stats.writes().length;
    const out = await cli.run('plan', twin.name, 'general-1');
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toMatch(/^plan [0-9a-f]{7} for traps, node general-1:\n/);
    expect(out.stdout).toContain('canary: allowed.');
    expect(out.stdout).toContain('  5. label node general-1 proxy-migrate.io/mode=switching\n');
    expect(out.stdout).toContain(
      '  6. label node general-1 proxy-migrate.io/mode=nftables (was switching)\n',
    );
    expect(out.stdout).toMatch(/suggested order:\n {4}1\. /);
    const writes = twin.stats.writes().slice(writesBefore);
    expect(writes.every((w) => w.dryRun)).toBe(true);
    expect(writes.filter((w) => w.resource === 'nodes').map((w) => w.name)).toEqual([
      'general-1',
      'general-1',
    ]);
  });

  it('hashes differently once the DaemonSet changed, and the same when nothing did', async () => {
    const { twin, cli, kubectl } = await setUp('kubeadm-ipvs');
    const first = parse((await cli.run('plan', twin.name, '--format', 'json')).stdout).hash;
    const again = parse((await cli.run('plan', twin.name, '--format', 'json')).stdout).hash;
    expect(again).toBe(first);
    const patched = await kubectl(
      'patch',
      'daemonset',
      'kube-proxy',
      '-n',
      'kube-system',
      '--type=merge',
      '-p',
      '{"spec":{"minReadySeconds":5}}',
    );
    expect(patched.code, patched.stderr).toBe(0);
    const after = parse((await cli.run('plan', twin.name, '--format', 'json')).stdout).hash;
    expect(after).not.toBe(first);
  });

  it('refuses the canary where the platform owns kube-proxy, with its own commands', async () => {
    const { twin, cli } = await setUp('eks-al2-al2023');
    const out = await cli.run('plan', twin.name, '--format', 'json');
    expect(out.code).toBe(2);
    const plan = parse(out.stdout);
    expect(plan.platform).toBe('Amazon EKS');
    expect(plan.canary.allowed).toBe(false);
    expect(plan.canary.reason).toMatch(/^Amazon EKS manages kube-proxy/);
    expect(plan.canary.commands.some((c) => c.startsWith('aws eks update-addon'))).toBe(true);

    const text = await cli.run('plan', twin.name);
    expect(text.code).toBe(2);
    expect(text.stdout).toContain('canary: REFUSED. Amazon EKS manages kube-proxy');
    expect(text.stdout).toContain('    $ aws eks describe-addon --cluster-name');
  });

  it('plans an EKS cluster whose operators confirmed kube-proxy is self-managed, with the add-on warning', async () => {
    const { twin, cli } = await setUp('eks-al2-al2023');
    await writeFile(
      join(dir ?? '', 'clusters.yaml'),
      `clusters:\n  - name: ${twin.name}\n    kubeconfig: ./kubeconfig\n    context: ${twin.name}\n    selfManagedKubeProxy: true\n`,
    );
    const out = await cli.run('plan', twin.name);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toContain('canary: allowed.');
    expect(out.stdout).toMatch(/ {2}! kube-proxy is self-managed on EKS: installing or updating/);
  });

  it('says what is wrong with an unknown node and writes nothing', async () => {
    const { twin, cli } = await setUp('kubeadm-ipvs');
    const writesBefore = twin.stats.writes().length;
    const out = await cli.run('plan', twin.name, 'no-such-node');
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/^Cannot plan kubeadm-ipvs: .*no-such-node/);
    expect(twin.stats.writes().slice(writesBefore)).toEqual([]);
  });
});
