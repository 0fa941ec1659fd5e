import { describe, expect, it } from 'vitest';
import { probeContext } from '../../../src/probes/context.js';
import { iptablesSaveProbe } from '../../../src/probes/iptables-save.js';
import { iptablesSaveMissing } from '../../fixtures/node-outputs.js';

describe('iptables-save', () => {
  it('saves iptables rules', () => {
    expect(iptablesSaveProbe.argv(probeContext({}))).toEqual(['iptables-save']);
    const r = iptablesSaveProbe.parse({
      exitCode: 0,
      stdout: '*nat\n:KUBE-SERVICES - [0:0]\n-A KUBE-SERVICES -j ACCEPT\nCOMMIT\n',
      stderr: '',
    });
    expect('tables' in r && r.tables[0]?.rules.get('KUBE-SERVICES')).toBe(1);
  });

  it('is an error where the image has no iptables (the twin’s node, exit 127)', () => {
    expect(iptablesSaveProbe.parse(iptablesSaveMissing)).toEqual({
      kind: 'probe-error',
      code: 'not-installed',
      message:
        'iptables-save is not in the probe image (exit 127: iptables-save: command not found)',
    });
  });
});
