import { describe, expect, it } from 'vitest';
import { expectedServices, familiesOf } from '../../../src/verify/expected.js';
import { services } from './inputs.js';

describe('expectedServices', () => {
  it('lists every ClusterIP and port of the scenario’s Services', () => {
    const e = expectedServices(services('kubeadm-ipvs'));
    expect(e.clusterIPs.map((c) => c.ip)).toEqual([
      '10.96.0.1',
      '10.96.0.10',
      '10.104.27.183',
      '10.109.88.41',
    ]);
    expect(e.ports).toContainEqual({
      ip: '10.96.0.10',
      family: 'IPv4',
      service: 'kube-system/kube-dns',
      protocol: 'udp',
      port: 53,
    });
    expect(e.ports).toContainEqual({
      ip: '10.109.88.41',
      family: 'IPv4',
      service: 'default/web-nodeport',
      protocol: 'tcp',
      port: 80,
      nodePort: 30080,
    });
    expect(familiesOf(e)).toEqual(new Set(['IPv4']));
  });

  it('skips headless and ExternalName Services and reads dual-stack ones by family', () => {
    const e = expectedServices([
      {
        metadata: { name: 'headless', namespace: 'a' },
        spec: { clusterIP: 'None', clusterIPs: ['None'], ports: [{ port: 80 }] },
      },
      {
        metadata: { name: 'ext', namespace: 'a' },
        spec: { type: 'ExternalName', ports: [{ port: 80 }] },
      },
      {
        metadata: { name: 'dual', namespace: 'a' },
        spec: {
          clusterIPs: ['10.96.1.1', 'FD00:10:96:0::1'],
          ports: [{ port: 53, protocol: 'UDP' }],
        },
      },
    ]);
    expect(e.clusterIPs).toEqual([
      { ip: '10.96.1.1', family: 'IPv4', service: 'a/dual' },
      { ip: 'fd00:10:96::1', family: 'IPv6', service: 'a/dual' },
    ]);
    expect(e.ports.map((p) => `${p.ip} ${p.protocol} ${p.port}`)).toEqual([
      '10.96.1.1 udp 53',
      'fd00:10:96::1 udp 53',
    ]);
  });
});
