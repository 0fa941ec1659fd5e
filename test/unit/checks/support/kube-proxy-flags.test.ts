import { describe, expect, it } from 'vitest';
import { configFromFlags } from '../../../../src/checks/support/kube-proxy-flags.js';
import { parseFlags } from '../../../../src/core/kube-proxy-config.js';

describe('configFromFlags', () => {
  it('turns flags into the configuration keys they set', () => {
    const flags = parseFlags([
      'kube-proxy',
      '--proxy-mode=ipvs',
      '--nodeport-addresses=10.0.0.0/8, 192.168.0.0/16',
      '--masquerade-all=true',
      '--iptables-masquerade-bit=14',
      '--ipvs-sync-period=30s',
      '--feature-gates=KubeProxyIPVS=true,Other=false',
      '--v=3',
    ]);
    expect(configFromFlags(flags)).toEqual({
      mode: 'ipvs',
      nodePortAddresses: ['10.0.0.0/8', '192.168.0.0/16'],
      iptables: { masqueradeAll: true, masqueradeBit: 14 },
      ipvs: { syncPeriod: '30s' },
      featureGates: { KubeProxyIPVS: true, Other: false },
    });
  });
});
