import { describe, expect, it } from 'vitest';
import { parseIpJson } from '../../../src/core/parse/ip-json.js';
import type { KubeNode } from '../../../src/core/kube.js';
import { expectedServices } from '../../../src/verify/expected.js';
import {
  clusterIPTarget,
  nodePortAddresses,
  nodePortTargets,
  primaryAddresses,
} from '../../../src/verify/targets.js';
import * as out from '../../fixtures/node-outputs.js';
import { node, services } from './inputs.js';

const edge: KubeNode = {
  metadata: { name: 'edge-1' },
  status: {
    addresses: [
      { type: 'InternalIP', address: '10.0.4.21' },
      { type: 'InternalIP', address: '192.168.50.21' },
      { type: 'InternalIP', address: 'fd00:4::21' },
      { type: 'Hostname', address: 'edge-1' },
    ],
  },
};
const links = (() => {
  const r = parseIpJson(
    JSON.stringify([
      { ifname: 'lo', addr_info: [{ family: 'inet', local: '127.0.0.1', prefixlen: 8 }] },
      {
        ifname: 'eth0',
        addr_info: [
          { family: 'inet', local: '10.0.4.21', prefixlen: 24 },
          { family: 'inet6', local: 'fd00:4::21', prefixlen: 64 },
          { family: 'inet6', local: 'fe80::1', prefixlen: 64 },
        ],
      },
      { ifname: 'eth1', addr_info: [{ family: 'inet', local: '192.168.50.21', prefixlen: 24 }] },
      { ifname: 'eth0:vip', addr_info: [{ family: 'inet', local: '10.0.100.10', prefixlen: 32 }] },
      { ifname: 'kube-ipvs0', addr_info: [{ family: 'inet', local: '10.96.0.1', prefixlen: 32 }] },
      { ifname: 'cni0', addr_info: [{ family: 'inet', local: '10.244.3.1', prefixlen: 24 }] },
    ]),
  );
  if (!r.ok) throw new Error(r.error);
  return r.value;
})();
const ips = (input: Parameters<typeof nodePortAddresses>[0]) =>
  nodePortAddresses(input).map((a) => `${a.ip} ${a.kind}`);

describe('primaryAddresses', () => {
  it('takes the first InternalIP and the first of the other family (GetNodeHostIPs)', () => {
    expect(primaryAddresses(edge)).toEqual(['10.0.4.21', 'fd00:4::21']);
    expect(primaryAddresses(node('kubeadm-ipvs', 'blue-1'))).toEqual(['10.0.1.11']);
    expect(primaryAddresses({ metadata: { name: 'x' } })).toEqual([]);
  });
});

describe('nodePortAddresses', () => {
  it('is the primary IPs in nftables mode when unset (facts §8)', () => {
    expect(ips({ node: edge, links, mode: 'nftables' })).toEqual([
      '10.0.4.21 primary',
      'fd00:4::21 primary',
    ]);
    expect(ips({ node: edge, links, setting: ['primary'], mode: 'nftables' })).toEqual([
      '10.0.4.21 primary',
      'fd00:4::21 primary',
    ]);
  });

  it('is every own address in IPVS mode or with 0.0.0.0/0, never IPVS’ or a bridge’s', () => {
    const all = [
      '10.0.4.21 primary',
      'fd00:4::21 primary',
      '192.168.50.21 secondary',
      '10.0.100.10 secondary',
    ];
    expect(ips({ node: edge, links, mode: 'ipvs' })).toEqual(all);
    expect(ips({ node: edge, links, setting: ['0.0.0.0/0', '::/0'], mode: 'nftables' })).toEqual(
      all,
    );
  });

  it('takes CIDRs per family; a family without a CIDR matches all its addresses', () => {
    expect(ips({ node: edge, links, setting: ['192.168.50.0/24'], mode: 'nftables' })).toEqual([
      'fd00:4::21 primary',
      '192.168.50.21 secondary',
    ]);
  });

  it('falls back to the Node object’s addresses without ip -j addr', () => {
    expect(ips({ node: edge, mode: 'ipvs' })).toEqual([
      '10.0.4.21 primary',
      'fd00:4::21 primary',
      '192.168.50.21 secondary',
    ]);
    const r = parseIpJson(out.hostAddressesIpvs.stdout);
    expect(
      r.ok &&
        nodePortAddresses({ node: node('kubeadm-ipvs', 'blue-1'), links: r.value, mode: 'ipvs' }),
    ).toEqual([{ ip: '10.0.1.11', kind: 'primary' }]);
  });
});

describe('targets', () => {
  it('makes one NodePort target per address of the port’s family, and a ClusterIP target', () => {
    const port = expectedServices(services('kubeadm-ipvs')).ports.find(
      (p) => p.nodePort !== undefined,
    )!;
    expect(
      nodePortTargets(
        [
          { ip: '10.0.1.11', kind: 'primary' },
          { ip: 'fd00::11', kind: 'primary' },
        ],
        port,
      ),
    ).toEqual([
      {
        kind: 'nodeport',
        host: '10.0.1.11',
        port: 30080,
        service: 'default/web-nodeport',
        address: 'primary',
      },
    ]);
    expect(clusterIPTarget(port)).toEqual({
      kind: 'clusterip',
      host: '10.109.88.41',
      port: 80,
      service: 'default/web-nodeport',
    });
    const noNodePort = expectedServices(services('kubeadm-ipvs')).ports[0]!;
    expect(nodePortTargets([{ ip: '10.0.1.11', kind: 'primary' }], noNodePort)).toEqual([]);
  });
});
