import { describe, expect, it } from 'vitest';
import {
  nodeSecondaryAddresses,
  secondaryAddresses,
} from '../../../src/checks/node-secondary-addresses.js';
import type { KubeNode } from '../../../src/core/kube.js';
import { configWith, ctxOf, ctxWithConfig, poolNodes, service } from '../../fixtures/checks-b.js';

function withAddresses(node: KubeNode, addresses: [string, string][]): KubeNode {
  return {
    ...node,
    status: {
      ...node.status,
      addresses: addresses.map(([type, address]) => ({ type, address })),
    },
  };
}

const [blue1, blue2] = poolNodes('blue', 2);
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
const nodePort = [service('shop', 'web', 'NodePort', 30080)];

describe('node-secondary-addresses', () => {
  it('informs per pool, pointing at nodeport-addresses, when NodePorts exist and nodePortAddresses is unset', () => {
    const findings = nodeSecondaryAddresses.run(
      ctxOf({ nodes: [multiHomed, dualStack], services: nodePort }),
    );
    expect(findings).toHaveLength(1);
    const [f] = findings;
    expect(f).toMatchObject({
      check: 'node-secondary-addresses',
      severity: 'info',
      scope: { kind: 'pool', name: 'blue' },
      subjects: ['blue-1'],
    });
    expect(f?.title).toBe(
      '1 of 2 nodes (blue-1) have addresses besides the primary that NodePorts stop answering on in nftables mode',
    );
    expect(f?.detail).toContain('blue-1: 192.168.50.21 (InternalIP)');
    expect(f?.detail).toContain('Only the Node objects’ addresses were read');
    expect(f?.detail).toContain('See nodeport-addresses');
    expect(f?.remedy).toContain('See nodeport-addresses');
    expect(f?.remedy).toContain('nodePortAddresses: ["0.0.0.0/0", "::/0"]');
    expect(f?.commands[0]).toBe(
      'kubectl get nodes -o jsonpath=\'{range .items[*]}{.metadata.name}{"\\t"}{range .status.addresses[*]}{.type}={.address}{" "}{end}{"\\n"}{end}\'',
    );
  });

  it('is informational when no NodePort Service exists or nodePortAddresses is set', () => {
    const [none] = nodeSecondaryAddresses.run(ctxOf({ nodes: [multiHomed] }));
    expect(none).toMatchObject({ severity: 'info', subjects: ['blue-1'] });
    expect(none?.remedy).toBeUndefined();
    const config = configWith({ 'nodePortAddresses: null': 'nodePortAddresses: ["0.0.0.0/0"]' });
    const [set] = nodeSecondaryAddresses.run(
      ctxWithConfig(config, { nodes: [multiHomed], services: nodePort }),
    );
    expect(set?.severity).toBe('info');
    expect(set?.detail).toContain('set explicitly (0.0.0.0/0)');
  });

  it('does not count the primary of each family, hostnames or DNS names', () => {
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

  it('says that host-only addresses were not checked when no Node lists a secondary one', () => {
    const [f] = nodeSecondaryAddresses.run(ctxOf({ nodes: [dualStack], services: nodePort }));
    expect(f).toMatchObject({ severity: 'info', scope: { kind: 'cluster' } });
    expect(f?.detail).toContain('ip -br addr');
  });

  it('does not fire with single-address nodes and no NodePorts', () => {
    expect(nodeSecondaryAddresses.run(ctxOf({ nodes: [dualStack] }))).toEqual([]);
  });
});
