import { describe, expect, it } from 'vitest';
import { probeContext } from '../../../src/probes/context.js';
import { kubeIpvs0Probe } from '../../../src/probes/kube-ipvs0.js';
import { kubeIpvs0Missing, kubeIpvs0Present } from '../../fixtures/node-outputs.js';

describe('kube-ipvs0', () => {
  it('shows the link as JSON', () => {
    expect(kubeIpvs0Probe.argv(probeContext({}))).toEqual([
      'ip',
      '-j',
      'link',
      'show',
      'kube-ipvs0',
    ]);
    const read = kubeIpvs0Probe.parse(kubeIpvs0Present);
    expect('present' in read && read.present && read.link.operstate).toBe('DOWN');
  });

  it('reads "does not exist" as absent', () => {
    expect(kubeIpvs0Probe.parse(kubeIpvs0Missing)).toEqual({ present: false });
  });

  it('is an error on other failures', () => {
    expect(
      kubeIpvs0Probe.parse({
        exitCode: 255,
        stdout: '',
        stderr: 'Object "lnk" is unknown, try "ip help".\n',
      }),
    ).toMatchObject({ code: 'failed' });
    expect(kubeIpvs0Probe.parse({ exitCode: 0, stdout: '[]\n', stderr: '' })).toMatchObject({
      code: 'unparsable',
    });
  });
});
