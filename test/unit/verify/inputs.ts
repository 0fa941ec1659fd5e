// Verification inputs built from the twin's real output (test/fixtures/node-outputs.ts): a node
// that cut over cleanly (nftables-done, general-1) and one back on IPVS (kubeadm-ipvs, blue-1).
// Tests start from these passing inputs and break one thing at a time.
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import type { KubeNode, KubeService } from '../../../src/core/kube.js';
import { probeContext } from '../../../src/probes/context.js';
import {
  nodeProbes,
  readNodeProbe,
  type NodeProbeId,
  type ProbeReads,
} from '../../../src/probes/index.js';
import { readProbe, type ProbeRead } from '../../../src/probes/read.js';
import { targetProbes } from '../../../src/probes/index.js';
import type { CurlOutcome } from '../../../src/core/parse/curl.js';
import type { Metrics } from '../../../src/core/parse/prometheus.js';
import { expectedServices } from '../../../src/verify/expected.js';
import type {
  IpvsVerifyInput,
  LogRead,
  NftablesVerifyInput,
  ReachabilityRead,
  ReachabilityTarget,
} from '../../../src/verify/types.js';
import * as out from '../../fixtures/node-outputs.js';

/** When the fixtures were captured: kube-proxy's last sync in them. */
export const T0 = Date.parse('2026-12-01T09:42:38.450Z');
export const at = (seconds: number): string => new Date(T0 + seconds * 1000).toISOString();

function scenario(name: string): Record<string, unknown>[] {
  const text = readFileSync(
    new URL(`../../../packages/twin/scenarios/${name}.yaml`, import.meta.url),
    'utf8',
  );
  return parseAllDocuments(text).map((d) => d.toJS() as Record<string, unknown>);
}

export const services = (name: string): KubeService[] =>
  scenario(name).filter((d) => d['kind'] === 'Service') as unknown as KubeService[];

export const node = (name: string, node: string): KubeNode =>
  scenario(name).find(
    (d) => d['kind'] === 'Node' && (d['metadata'] as { name: string }).name === node,
  ) as unknown as KubeNode;

const ctx = probeContext({ nodeIP: '10.30.1.11' });

export const read = <K extends NodeProbeId>(id: K, result: out.NodeOutput, seconds = 5) =>
  readNodeProbe(id, nodeProbes[id].argv(ctx), result, at(seconds));

export const metricsRead = (result: out.NodeOutput, seconds: number): ProbeRead<Metrics> =>
  read('metrics', result, seconds);

export const logRead = (lines: readonly string[]): LogRead => ({
  probe: 'kube-proxy-log',
  argv: [],
  value: lines,
  at: at(5),
});

export function reach(
  target: ReachabilityTarget,
  from: string,
  result: out.NodeOutput,
): ReachabilityRead {
  const probe =
    target.kind === 'clusterip' ? targetProbes['curl-clusterip'] : targetProbes['curl-nodeport'];
  const argv = probe.argv({ ...ctx, target });
  const r: ProbeRead<CurlOutcome> = readProbe(probe, argv, result, at(6));
  return { target, from, read: r };
}

export const webClusterIP: ReachabilityTarget = {
  kind: 'clusterip',
  host: '10.102.33.71',
  port: 80,
  service: 'default/web',
};
export const webNodePort: ReachabilityTarget = {
  kind: 'nodeport',
  host: '10.30.1.11',
  port: 30080,
  service: 'default/web',
  address: 'primary',
};

export function nftablesInput(): NftablesVerifyInput {
  const reads: ProbeReads = {
    'nft-table': read('nft-table', out.nftTable),
    'nft-table-ip6': read('nft-table-ip6', out.nftTableIp6),
    'ipvsadm-list': read('ipvsadm-list', out.ipvsEmpty),
    'kube-ipvs0': read('kube-ipvs0', out.kubeIpvs0Missing),
    'host-addresses': read('host-addresses', out.hostAddressesNft),
    healthz: read('healthz', out.healthz200),
    livez: read('livez', out.livez200),
  };
  return {
    node: 'general-1',
    step: 'verify',
    now: at(20),
    reads,
    expected: expectedServices(services('nftables-done')),
    log: logRead(out.logNft),
    reachability: {
      clusterIP: [webClusterIP],
      nodePort: [webNodePort],
      peer: { node: 'compute-1', migrated: false },
      reads: [
        reach(webClusterIP, 'general-1', out.clusterIP200),
        reach(webNodePort, 'general-1', out.nodePortSelf),
        reach(webNodePort, 'compute-1', out.nodePortPeer),
      ],
    },
    metrics: {
      baseline: metricsRead(out.metricsIpvs, -60),
      first: metricsRead(out.metricsNft, 5),
      second: metricsRead(out.metricsNft, 15),
    },
    syncPeriodSeconds: 30,
  };
}

const blueNodePort: ReachabilityTarget = {
  kind: 'nodeport',
  host: '10.0.1.11',
  port: 30080,
  service: 'default/web-nodeport',
  address: 'primary',
};
const blueClusterIP: ReachabilityTarget = {
  kind: 'clusterip',
  host: '10.109.88.41',
  port: 80,
  service: 'default/web-nodeport',
};

export function ipvsInput(): IpvsVerifyInput {
  return {
    node: 'blue-1',
    step: 'verify-back',
    now: at(20),
    reads: {
      'ipvsadm-list': read('ipvsadm-list', out.ipvsList),
      'kube-ipvs0': read('kube-ipvs0', out.kubeIpvs0Present),
      'nft-table': read('nft-table', out.nftTableMissing),
      'nft-table-ip6': read('nft-table-ip6', out.nftTableMissing),
      healthz: read('healthz', out.healthz200),
    },
    expected: expectedServices(services('kubeadm-ipvs')),
    log: logRead(out.logIpvs),
    reachability: {
      clusterIP: [blueClusterIP],
      nodePort: [blueNodePort],
      peer: { node: 'green-1', migrated: false },
      reads: [
        reach(blueClusterIP, 'blue-1', out.clusterIP200),
        reach(blueNodePort, 'blue-1', out.nodePortSelf),
        reach(blueNodePort, 'green-1', out.nodePortPeer),
      ],
    },
  };
}
