// The fleet probe through the real client-node against the twin: one DaemonSet whose pods the
// twin's DaemonSet controller starts on every node, exec'd into, then deleted with its pods, on
// close and on abort; a crashed run's DaemonSet is removed by the next run.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeClusterDirectory } from '../../../src/adapters/kubernetes/directory.js';
import { PROBE_RUN_LABEL } from '../../../src/adapters/kubernetes/probe-daemonset.js';
import { PROBE_LABEL } from '../../../src/adapters/kubernetes/probe-pod.js';
import { ProbePodShell } from '../../../src/adapters/kubernetes/probe-shell.js';
import { clusterConfig } from '../../../src/config.js';
import { resourceFor, startTwin, type Twin } from '@proxy-migrate/twin';
import { captureLog } from '../../helpers/log-capture.js';

let twin: Twin;
let dir: string;
let directory: KubeClusterDirectory;
let kubeConfig: KubeConfig;

const daemonSets = () =>
  twin.store
    .list(resourceFor('daemonsets'), { namespace: 'proxy-migrate-probes' })
    .items.filter((d) => d.metadata.labels?.[PROBE_LABEL] === 'true');
const probePods = () =>
  twin.store
    .list(resourceFor('pods'), { namespace: 'proxy-migrate-probes' })
    .items.filter((p) => p.metadata.labels?.[PROBE_LABEL] === 'true');
const nodeNames = () =>
  twin.store.list(resourceFor('nodes'), {}).items.map((n) => n.metadata.name ?? '');

const logs = captureLog();
function shellFor(runId: string, now: () => number = Date.now): ProbePodShell {
  const client = directory.get('cluster-a');
  return new ProbePodShell(kubeConfig, {
    apply: (action) => client.apply(action),
    cluster: 'cluster-a',
    namespace: 'proxy-migrate-probes',
    image: 'probe:test',
    runId,
    logger: logs.logger,
    fleetMinNodes: 2,
    pollMs: 100,
    startTimeoutMs: 20_000,
    now,
  });
}

/** Waits (with a deadline) until the garbage collector has removed the probe pods. */
async function noProbePodsWithin(ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (probePods().length > 0 && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 50));
  expect(probePods().map((p) => p.metadata.name)).toEqual([]);
}

beforeAll(async () => {
  twin = await startTwin({ scenario: 'kubeadm-ipvs', speed: 50 });
  dir = await mkdtemp(join(tmpdir(), 'pm-fleet-'));
  const path = join(dir, 'kubeconfig.yaml');
  await twin.writeKubeconfig(path);
  const cluster = clusterConfig({
    name: 'cluster-a',
    kubeconfig: path,
    probe: { image: 'probe:test' },
  });
  directory = new KubeClusterDirectory(
    { clusters: [cluster], defaultKubeconfigs: [] },
    captureLog().logger,
  );
  kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(path);
});

afterAll(async () => {
  await twin.close();
  await rm(dir, { recursive: true, force: true });
});

describe('fleet probe DaemonSet', () => {
  it('starts one probe pod per node through the DaemonSet controller, execs into each, and deletes them all', async () => {
    const nodes = nodeNames();
    const shell = shellFor('pf-fleet-1');
    twin.stats.reset();
    shell.prepare(nodes, { allNodes: true });
    const kernels = await Promise.all(
      nodes.map((node) => shell.run(node, ['uname', '-r'], { timeoutMs: 10_000 })),
    );
    expect(kernels.every((k) => k.exitCode === 0 && /^\d+\.\d+\.\d+/.test(k.stdout))).toBe(true);
    // One create for the whole fleet: the pods are the controller's, none created by the bot.
    expect(twin.stats.count('create', 'daemonsets')).toBe(1);
    expect(twin.stats.count('create', 'pods')).toBe(0);
    const [ds] = daemonSets();
    expect(ds?.metadata.labels?.[PROBE_RUN_LABEL]).toBe('pf-fleet-1');
    const pods = probePods();
    expect(new Set(pods.map((p) => (p['spec'] as { nodeName?: string }).nodeName))).toEqual(
      new Set(nodes),
    );
    expect(pods.every((p) => p.metadata.ownerReferences?.[0]?.kind === 'DaemonSet')).toBe(true);
    expect(pods[0]?.['spec']).toMatchObject({ hostNetwork: true, restartPolicy: 'Always' });

    await shell.close();
    expect(daemonSets()).toEqual([]);
    await noProbePodsWithin(10_000);
  });

  it('pins the DaemonSet to the nodes asked for when they are not the whole fleet', async () => {
    const some = nodeNames().slice(0, 3);
    const shell = shellFor('pf-fleet-2');
    try {
      shell.prepare(some);
      await Promise.all(some.map((n) => shell.run(n, ['uname', '-r'], { timeoutMs: 10_000 })));
      const pods = probePods();
      const on = pods.map((p) => (p['spec'] as { nodeName?: string }).nodeName);
      expect(new Set(on)).toEqual(new Set(some));
      expect(pods.every((p) => p.metadata.ownerReferences?.[0]?.kind === 'DaemonSet')).toBe(true);
      expect(logs.lines().filter((l) => l['level'] === 'warn')).toEqual([]);
    } finally {
      await shell.close();
    }
    expect(daemonSets()).toEqual([]);
    await noProbePodsWithin(10_000);
  });

  it('deletes the DaemonSet when the run is aborted while its pods are still starting', async () => {
    const nodes = nodeNames();
    const shell = shellFor('pf-fleet-abort');
    shell.prepare(nodes, { allNodes: true });
    // Its failure (the shell closes under it) is handled at once, before close is awaited.
    const pending = shell
      .run(nodes[0] ?? '', ['uname', '-r'], { timeoutMs: 10_000 })
      .catch(() => undefined);
    // Aborted at once: the create may still be in flight; close waits for it and deletes it.
    await shell.close();
    await pending;
    expect(daemonSets()).toEqual([]);
    await noProbePodsWithin(10_000);
    await expect(shell.run(nodes[1] ?? '', ['uname', '-r'], { timeoutMs: 1_000 })).rejects.toThrow(
      /closed/,
    );
  });

  it('removes a probe DaemonSet a crashed run left behind, and leaves a live run’s alone', async () => {
    const nodes = nodeNames();
    const crashed = shellFor('pf-crashed');
    crashed.prepare(nodes, { allNodes: true });
    await crashed.run(nodes[0] ?? '', ['uname', '-r'], { timeoutMs: 10_000 });
    // The crashed run never closes its shell. A run now takes another name and leaves it be.
    const live = shellFor('pf-live');
    live.prepare(nodes.slice(0, 2));
    await live.run(nodes[0] ?? '', ['uname', '-r'], { timeoutMs: 10_000 });
    expect(
      daemonSets().map((d) => [d.metadata.name, d.metadata.labels?.[PROBE_RUN_LABEL]]),
    ).toEqual([
      ['proxy-migrate-probe-0', 'pf-crashed'],
      ['proxy-migrate-probe-1', 'pf-live'],
    ]);
    await live.close();
    // A run an hour later (by its clock): the crashed run's DaemonSet is older than a probe's
    // lifetime, so it is removed and its name taken.
    const shell = shellFor('pf-fleet-3', () => Date.now() + 3_600_000);
    try {
      shell.prepare(nodes, { allNodes: true });
      await shell.run(nodes[0] ?? '', ['uname', '-r'], { timeoutMs: 10_000 });
      expect(
        daemonSets().map((d) => [d.metadata.name, d.metadata.labels?.[PROBE_RUN_LABEL]]),
      ).toEqual([['proxy-migrate-probe-0', 'pf-fleet-3']]);
    } finally {
      await shell.close();
    }
    expect(daemonSets()).toEqual([]);
    await noProbePodsWithin(10_000);
  });
});
