import { describe, expect, it } from 'vitest';
import {
  hostMatches,
  nodeHostIPs,
  resolveHostFacts,
  rollbackKernel,
} from '../../../../src/node/host/host.js';
import type { HostSpec } from '../../../../src/scenario/schema.js';
import { compareIPs, sortIPs } from '../../../../src/node/host/ip.js';
import { node } from '../fixtures.js';

const n = node('blue-1', '10.0.1.11', '5.15.0-122-generic', {
  labels: { 'node-pool': 'blue' },
  cpu: '8',
});

describe('host matching', () => {
  it('matches *, the node name and label:<key>=<value>', () => {
    expect(hostMatches('*', n)).toBe(true);
    expect(hostMatches('blue-1', n)).toBe(true);
    expect(hostMatches('blue-2', n)).toBe(false);
    expect(hostMatches('label:node-pool=blue', n)).toBe(true);
    expect(hostMatches('label:node-pool=green', n)).toBe(false);
    expect(hostMatches('label:node-pool', n)).toBe(true);
  });
});

describe('resolveHostFacts', () => {
  it('defaults from the Node object', () => {
    const f = resolveHostFacts(n, []);
    expect(f).toMatchObject({
      nodeName: 'blue-1',
      kernel: '5.15.0-122-generic',
      nodeKernel: '5.15.0-122-generic',
      nft: '1.0.6',
      addresses: ['10.0.1.11'],
      nodeIPs: ['10.0.1.11'],
      cpus: 8,
      routeLocalnet: false,
      faults: [],
    });
    expect(f.conntrack).toEqual({ count: 0, max: 262144, invalidPerCpu: [0, 0, 0, 0, 0, 0, 0, 0] });
    expect(resolveHostFacts(node('x', '10.0.0.1', '5.4.0-80-generic'), []).nft).toBe('0.9.3');
  });

  it('applies every matching entry in file order, later fields overriding field by field', () => {
    const hosts: HostSpec[] = [
      {
        match: '*',
        nft: '1.0.2',
        conntrack: { count: 1200, max: 262144, invalidPerCpu: [0, 0] },
        routeLocalnet: false,
      },
      { match: 'label:node-pool=blue', nft: '1.0.9', conntrack: { max: 131072 } },
      { match: 'blue-2', nft: '0.9.3' },
      { match: 'blue-1', addresses: ['10.0.1.11', '192.168.50.21'], faults: ['not-ready'] },
    ];
    const f = resolveHostFacts(n, hosts);
    expect(f.nft).toBe('1.0.9');
    expect(f.conntrack).toEqual({ count: 1200, max: 131072, invalidPerCpu: [0, 0] });
    expect(f.addresses).toEqual(['10.0.1.11', '192.168.50.21']);
    expect(f.faults).toEqual(['not-ready']);
    // kube-proxy's primary IP still comes from the Node object, not the host addresses.
    expect(f.nodeIPs).toEqual(['10.0.1.11']);
  });

  it('kernel-reboot-rollback: uname reports the kernel fact while the Node keeps kernelVersion', () => {
    const withKernel = resolveHostFacts(n, [
      { match: '*', kernel: '5.4.0-80-generic', faults: ['kernel-reboot-rollback'] },
    ]);
    expect(withKernel.kernel).toBe('5.4.0-80-generic');
    expect(withKernel.nodeKernel).toBe('5.15.0-122-generic');
    expect(n['status']).toMatchObject({ nodeInfo: { kernelVersion: '5.15.0-122-generic' } });
    const defaulted = resolveHostFacts(n, [{ match: '*', faults: ['kernel-reboot-rollback'] }]);
    expect(defaulted.kernel).toBe(rollbackKernel);
    expect(defaulted.nft).toBe('0.9.3');
  });

  it('run-time faults replace the scenario list', () => {
    expect(
      resolveHostFacts(n, [{ match: '*', faults: ['not-ready'] }], ['kube-proxy-crashloop']).faults,
    ).toEqual(['kube-proxy-crashloop']);
  });

  it('picks the first InternalIP, else ExternalIP, plus the first IP of the other family', () => {
    const dual = node('d', '10.0.0.5');
    dual['status'] = {
      addresses: [
        { type: 'ExternalIP', address: '203.0.113.5' },
        { type: 'InternalIP', address: '10.0.0.5' },
        { type: 'InternalIP', address: 'fd00::5' },
      ],
    };
    expect(nodeHostIPs(dual)).toEqual(['10.0.0.5', 'fd00::5']);
  });
});

describe('sortIPs', () => {
  it('orders as compareIPs does (numeric, IPv4 before IPv6), parsing each address once', () => {
    const ips = ['10.96.0.10', 'fd00::1', '10.96.0.2', '9.9.9.9', '::1', 'not-an-ip', '10.100.0.1'];
    expect(sortIPs(ips)).toEqual([...ips].sort(compareIPs));
    expect(sortIPs(['10.0.0.10', '10.0.0.9'])).toEqual(['10.0.0.9', '10.0.0.10']);
  });
});
