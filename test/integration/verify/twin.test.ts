// The probes and verifications against the twin's node model, live: every probe a phase runs is
// exec'd on a node, parsed, and judged. A node already on nftables passes the cutover
// verifications and fails the rollback ones; an IPVS node the other way round; the
// nftables-sync-failures fault turns the sync and health verifications red.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resourceFor, startTwin, type KubeObject, type Twin } from '@proxy-migrate/twin';
import type { KubeNode, KubeService } from '../../../src/core/kube.js';
import { probeContext } from '../../../src/probes/context.js';
import {
  ipvsProbes,
  nftablesProbes,
  nodeProbes,
  probePlan,
  readNodeProbe,
  targetProbes,
  type NodeProbeId,
  type ProbeReads,
} from '../../../src/probes/index.js';
import { readProbe } from '../../../src/probes/read.js';
import { expectedServices } from '../../../src/verify/expected.js';
import {
  ipvsVerifications,
  nftablesVerifications,
  runVerifications,
} from '../../../src/verify/index.js';
import {
  clusterIPTarget,
  nodePortAddresses,
  nodePortTargets,
} from '../../../src/verify/targets.js';
import type {
  CommonVerifyInput,
  ReachabilityRead,
  ReachabilityTarget,
} from '../../../src/verify/types.js';
import { valueOf } from '../../../src/probes/read.js';

const twins: Record<string, Twin> = {};

beforeAll(async () => {
  for (const s of ['nftables-done', 'kubeadm-ipvs']) twins[s] = await startTwin({ scenario: s });
});
afterAll(async () => {
  for (const t of Object.values(twins)) await t.close();
});

const list = (twin: Twin, resource: string): KubeObject[] =>
  twin.store.list(resourceFor(resource)).items;

function gather(
  twin: Twin,
  nodeName: string,
  peer: string,
  ids: readonly NodeProbeId[],
  mode: 'nftables' | 'ipvs',
  now: number,
): CommonVerifyInput {
  const dp = twin.dataplane!;
  const node = list(twin, 'nodes').find((n) => n.metadata.name === nodeName) as unknown as KubeNode;
  const nodeIP = node.status?.addresses?.find((a) => a.type === 'InternalIP')?.address;
  const ctx = probeContext({ nodeIP });
  const at = new Date(now).toISOString();
  let reads: ProbeReads = {};
  for (const { id, argv } of probePlan([...ids, 'host-addresses'], ctx))
    reads = { ...reads, [id]: readNodeProbe(id, argv, dp.exec(nodeName, argv, now), at) };
  const expected = expectedServices(list(twin, 'services') as unknown as KubeService[]);
  const port = expected.ports.find((p) => p.nodePort !== undefined)!;
  const clusterIP = [clusterIPTarget(expected.ports.find((p) => p.service === port.service)!)];
  const nodePort = nodePortTargets(
    nodePortAddresses({ node, links: valueOf(reads['host-addresses']), mode }),
    port,
  );
  const curl = (t: ReachabilityTarget, from: string): ReachabilityRead => {
    const probe =
      t.kind === 'clusterip' ? targetProbes['curl-clusterip'] : targetProbes['curl-nodeport'];
    const argv = probe.argv({ ...ctx, target: t });
    return { target: t, from, read: readProbe(probe, argv, dp.exec(from, argv, now), at) };
  };
  const pod = list(twin, 'pods').find(
    (p) =>
      (p.metadata.name ?? '').startsWith('kube-proxy') &&
      (p['spec'] as { nodeName?: string }).nodeName === nodeName,
  )!;
  return {
    node: nodeName,
    step: 'verify',
    now: at,
    reads,
    expected,
    log: {
      probe: 'kube-proxy-log',
      argv: [],
      value: dp.logs(nodeName, pod.metadata.name ?? ''),
      at,
    },
    reachability: {
      clusterIP,
      nodePort,
      peer: { node: peer, migrated: false },
      reads: [
        ...clusterIP.map((t) => curl(t, nodeName)),
        ...nodePort.flatMap((t) => [curl(t, nodeName), curl(t, peer)]),
      ],
    },
  };
}

function nftInput(twin: Twin, now: number, later: number) {
  const input = gather(twin, 'general-1', 'compute-1', nftablesProbes, 'nftables', later);
  const metrics = nodeProbes.metrics;
  const argv = metrics.argv(probeContext({}));
  const readAt = (t: number) =>
    readNodeProbe(
      'metrics',
      argv,
      twin.dataplane!.exec('general-1', argv, t),
      new Date(t).toISOString(),
    );
  return {
    ...input,
    metrics: { first: readAt(now), second: readAt(later) },
    syncPeriodSeconds: 30,
  };
}

const failed = (found: { ok: boolean; probe: string }[]) =>
  found.filter((e) => !e.ok).map((e) => e.probe);

describe('verifications on the twin', () => {
  it('pass a node on nftables and fail it as a rollback', () => {
    const now = Date.now();
    const twin = twins['nftables-done']!;
    expect(
      failed(runVerifications(nftablesVerifications, nftInput(twin, now, now + 10_000))),
    ).toEqual([]);
    const back = gather(twin, 'general-1', 'compute-1', ipvsProbes, 'ipvs', now);
    expect(failed(runVerifications(ipvsVerifications, back))).toEqual(
      expect.arrayContaining(['ipvs-services', 'kube-ipvs0-present', 'nft-table-gone', 'ipvs-log']),
    );
  });

  it('pass a node on IPVS as a rollback and fail it as a cutover', () => {
    const now = Date.now();
    const twin = twins['kubeadm-ipvs']!;
    const input = gather(twin, 'blue-1', 'green-1', ipvsProbes, 'ipvs', now);
    expect(failed(runVerifications(ipvsVerifications, input))).toEqual([]);
    expect(input.reachability.nodePort.length).toBeGreaterThan(0);
    const asCutover = {
      ...gather(twin, 'blue-1', 'green-1', nftablesProbes, 'nftables', now),
      metrics: {},
      syncPeriodSeconds: 30,
    };
    expect(failed(runVerifications(nftablesVerifications, asCutover))).toEqual(
      expect.arrayContaining(['nft-table', 'ipvs-empty', 'kube-ipvs0-gone', 'nftables-log']),
    );
  });

  it('fail the sync and health verifications while nftables syncs fail', () => {
    const now = Date.now() + 60_000;
    const twin = twins['nftables-done']!;
    twin.dataplane!.setHostFaults('general-1', ['nftables-sync-failures'], now);
    const found = runVerifications(
      nftablesVerifications,
      nftInput(twin, now + 40_000, now + 100_000),
    );
    expect(failed(found)).toEqual(
      expect.arrayContaining(['nftables-sync-failures', 'sync-fresh', 'healthz', 'nftables-log']),
    );
    twin.dataplane!.setHostFaults('general-1', [], now + 100_000);
  });
});
