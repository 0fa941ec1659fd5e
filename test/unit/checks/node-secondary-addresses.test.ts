import { describe, expect, it } from 'vitest';
import {
  hostAddressesAtRisk,
  nodeSecondaryAddresses,
  secondaryAddresses,
} from '../../../src/checks/node-secondary-addresses.js';
import {
  hostOwnAddresses,
  keptByPrimary,
  kubeProxyNodeIPs,
  type HostAddress,
} from '../../../src/core/host-addresses.js';
import type { KubeNode } from '../../../src/core/kube.js';
import { parseIpJson } from '../../../src/core/parse/ip-json.js';
import {
  configWith,
  ctxOf,
  ctxWithConfig,
  facts,
  poolNodes,
  service,
} from '../../fixtures/checks-b.js';
import { hostAddressesDualStack, hostAddressesEdge } from '../../fixtures/node-outputs.js';

function withAddresses(node: KubeNode, addresses: [string, string][]): KubeNode {
  return {
    ...node,
    status: {
      ...node.status,
      addresses: addresses.map(([type, address]) => ({ type, address })),
    },
  };
}

function hostOf(output: { stdout: string }): HostAddress[] {
  const links = parseIpJson(output.stdout);
  if (!links.ok) throw new Error(links.error);
  return hostOwnAddresses(links.value);
}

const [blue1, blue2] = poolNodes('blue', 2);
const [edge1, edge2] = poolNodes('edge', 2);
const multiHomed = withAddresses(blue1!, [
  ['InternalIP', '10.0.1.21'],
  ['InternalIP', '192.168.50.21'],
  ['Hostname', 'blue-1'],
]);
const dualStack = withAddresses(blue2!, [
  ['InternalIP', '10.0.1.22'],
  ['InternalIP', 'fd00::22'],
  ['InternalDNS', 'blue-2.internal'],
]);
/** kubelet reports only the primary: the DMZ NIC and the VIP are on the host alone. */
const edgeNode = withAddresses(edge1!, [
  ['InternalIP', '10.0.4.21'],
  ['Hostname', 'edge-1'],
]);
const edgeReported = withAddresses(edge2!, [
  ['InternalIP', '10.0.4.22'],
  ['ExternalIP', '192.168.50.22'],
]);
const nodePort = [service('shop', 'web', 'NodePort', 30080)];
const edgeHost = hostOf(hostAddressesEdge);
const edge2Host: HostAddress[] = [
  { interface: 'eth0', address: '10.0.4.22', prefixlen: 24 },
  { interface: 'eth1', address: '192.168.50.22', prefixlen: 24 },
];

describe('host addresses from ip -j addr', () => {
  it('keeps the host’s own interfaces and leaves out loopback, link-local, kube-ipvs0 and CNI links', () => {
    expect(edgeHost).toEqual([
      { interface: 'eth0', address: '10.0.4.21', prefixlen: 24 },
      { interface: 'eth0', address: '10.0.100.10', prefixlen: 32 },
      { interface: 'eth1', address: '192.168.50.21', prefixlen: 24 },
    ]);
    expect(hostOf(hostAddressesDualStack).map((a) => a.address)).toEqual([
      '10.0.1.22',
      'fd00::22',
      'fd00::81b:2cff:fe3d:4e22',
    ]);
  });

  it('derives the node IPs kube-proxy uses: first InternalIP, else ExternalIP, per family; bindAddress wins', () => {
    expect(kubeProxyNodeIPs(dualStack)).toEqual({ IPv4: '10.0.1.22', IPv6: 'fd00::22' });
    expect(
      kubeProxyNodeIPs(
        withAddresses(blue1!, [
          ['ExternalIP', '203.0.113.7'],
          ['InternalIP', '10.0.1.21'],
        ]),
      ),
    ).toEqual({ IPv4: '10.0.1.21' });
    expect(kubeProxyNodeIPs(edgeNode, '192.168.50.21')).toEqual({ IPv4: '192.168.50.21' });
    expect(kubeProxyNodeIPs(edgeNode, '0.0.0.0')).toEqual({ IPv4: '10.0.4.21' });
    expect(kubeProxyNodeIPs({ metadata: { name: 'bare' } })).toEqual({});
  });

  it('keeps every address of a family without a node IP (nodeport_addresses.go adds ::/0)', () => {
    const ips = kubeProxyNodeIPs(edgeNode);
    expect(keptByPrimary('10.0.4.21', ips)).toBe(true);
    expect(keptByPrimary('192.168.50.21', ips)).toBe(false);
    expect(keptByPrimary('2001:db8::21', ips)).toBe(true);
    expect(hostAddressesAtRisk(edgeNode, edgeHost)).toEqual([
      { address: '10.0.100.10', interface: 'eth0' },
      { address: '192.168.50.21', interface: 'eth1' },
    ]);
    // Dual-stack: the SLAAC address is not the IPv6 node IP, so primary drops it.
    expect(hostAddressesAtRisk(dualStack, hostOf(hostAddressesDualStack))).toEqual([
      { address: 'fd00::81b:2cff:fe3d:4e22', interface: 'ens5' },
    ]);
  });
});

describe('node-secondary-addresses', () => {
  it('warns per pool about host addresses outside primary, naming each node and address', () => {
    const findings = nodeSecondaryAddresses.run(
      ctxOf({
        nodes: [edgeNode, edgeReported],
        services: nodePort,
        nodeFacts: [
          facts('edge-1', { addresses: edgeHost }),
          facts('edge-2', { addresses: edge2Host }),
        ],
      }),
    );
    expect(findings).toHaveLength(1);
    const [f] = findings;
    expect(f).toMatchObject({
      check: 'node-secondary-addresses',
      severity: 'warn',
      scope: { kind: 'pool', name: 'edge' },
      subjects: ['edge-1', 'edge-2'],
    });
    expect(f?.title).toBe(
      '2 of 2 nodes (edge-1, edge-2) have addresses besides the primary that NodePorts stop answering on in nftables mode',
    );
    expect(f?.detail).toContain(
      'edge-1: 10.0.100.10 (on eth0, not on the Node object), 192.168.50.21 (on eth1, not on the Node object); primary 10.0.4.21',
    );
    expect(f?.detail).toContain(
      'edge-2: 192.168.50.22 (on eth1, ExternalIP on the Node object); primary 10.0.4.22',
    );
    expect(f?.detail).toContain('read with `ip -j addr` on 2 nodes');
    expect(f?.remedy).toContain('nodePortAddresses: ["0.0.0.0/0", "::/0"]');
    expect(f?.remedy).toContain('the canary’s configuration sets exactly this');
    expect(f?.commands).toContain('ip -br addr');
  });

  it('does not report a Node object’s ExternalIP that is not on the host (a cloud’s NAT)', () => {
    const findings = nodeSecondaryAddresses.run(
      ctxOf({
        nodes: [
          withAddresses(edge2!, [
            ['InternalIP', '10.0.4.22'],
            ['ExternalIP', '203.0.113.22'],
          ]),
        ],
        services: nodePort,
        nodeFacts: [
          facts('edge-2', {
            addresses: [{ interface: 'eth0', address: '10.0.4.22', prefixlen: 24 }],
          }),
        ],
      }),
    );
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({
      severity: 'info',
      scope: { kind: 'cluster' },
      title: 'No node holds an address besides the primary',
    });
  });

  it('says which nodes could not be read: unknown is a warning, never a pass', () => {
    const findings = nodeSecondaryAddresses.run(
      ctxOf({
        nodes: [edgeNode, edgeReported],
        services: nodePort,
        nodeFacts: [
          facts('edge-1', {
            errors: [
              { probe: 'addresses', code: 'NODE_PROBE_FAILED', message: 'ip -j addr exited 1' },
            ],
          }),
          facts('edge-2', { addresses: [edge2Host[0]!] }),
        ],
      }),
    );
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({
      severity: 'warn',
      scope: { kind: 'pool', name: 'edge' },
      subjects: ['edge-1'],
    });
    expect(findings[0]?.title).toContain('host addresses could not be read');
    expect(findings[0]?.detail).toContain(
      'edge-1: addresses: NODE_PROBE_FAILED: ip -j addr exited 1',
    );
  });

  it('still names what the Node object lists on a node whose host could not be read', () => {
    const findings = nodeSecondaryAddresses.run(
      ctxOf({
        nodes: [edgeReported],
        services: nodePort,
        nodeFacts: [
          facts('edge-2', {
            errors: [{ probe: 'node', code: 'NODE_PROBE_FAILED', message: 'node is NotReady' }],
          }),
        ],
      }),
    );
    expect(findings.map((f) => [f.severity, f.subjects])).toEqual([
      ['warn', ['edge-2']],
      ['warn', ['edge-2']],
    ]);
    expect(findings[0]?.detail).toContain(
      'edge-2: 192.168.50.22 (ExternalIP on the Node object; host not read)',
    );
    expect(findings[1]?.detail).toContain('edge-2: node: NODE_PROBE_FAILED: node is NotReady');
  });

  it('falls back to the Node objects when the hosts were not probed, and says so', () => {
    const findings = nodeSecondaryAddresses.run(
      ctxOf({ nodes: [multiHomed, dualStack], services: nodePort }),
    );
    expect(findings).toHaveLength(1);
    const [f] = findings;
    expect(f).toMatchObject({
      severity: 'warn',
      scope: { kind: 'pool', name: 'blue' },
      subjects: ['blue-1'],
    });
    expect(f?.detail).toContain(
      'blue-1: 192.168.50.21 (InternalIP on the Node object; host not read); primary 10.0.1.21',
    );
    expect(f?.detail).toContain('only the Node objects’ addresses were read');
  });

  it('is informational when no NodePort Service exists or nodePortAddresses is set', () => {
    const probed = [facts('edge-1', { addresses: edgeHost })];
    const [none] = nodeSecondaryAddresses.run(ctxOf({ nodes: [edgeNode], nodeFacts: probed }));
    expect(none).toMatchObject({ severity: 'info', subjects: ['edge-1'] });
    expect(none?.remedy).toBeUndefined();
    const config = configWith({ 'nodePortAddresses: null': 'nodePortAddresses: ["0.0.0.0/0"]' });
    const [set] = nodeSecondaryAddresses.run(
      ctxWithConfig(config, { nodes: [edgeNode], services: nodePort, nodeFacts: probed }),
    );
    expect(set?.severity).toBe('info');
    expect(set?.detail).toContain('set explicitly (0.0.0.0/0)');
  });

  it('does not count the primary of each family, hostnames or DNS names on the Node object', () => {
    expect(secondaryAddresses(dualStack)).toEqual([]);
    expect(
      secondaryAddresses(
        withAddresses(blue1!, [
          ['ExternalIP', '203.0.113.7'],
          ['InternalIP', '10.0.1.21'],
        ]),
      ),
    ).toEqual([{ type: 'ExternalIP', address: '203.0.113.7' }]);
    expect(secondaryAddresses({ metadata: { name: 'bare' } })).toEqual([]);
  });

  it('does not fire with single-address nodes and no NodePorts', () => {
    expect(nodeSecondaryAddresses.run(ctxOf({ nodes: [dualStack] }))).toEqual([]);
  });
});
