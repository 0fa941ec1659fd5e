import { describe, expect, it } from 'vitest';
import { kubeIpvs0PresentVerification } from '../../../src/verify/kube-ipvs0-present.js';
import * as out from '../../fixtures/node-outputs.js';
import { ipvsInput, read } from './inputs.js';

function judge(result: out.NodeOutput) {
  const input = ipvsInput();
  input.reads = { ...input.reads, 'kube-ipvs0': read('kube-ipvs0', result) };
  return kubeIpvs0PresentVerification.verify(input).map((e) => [e.ok, e.verdict]);
}

describe('kube-ipvs0-present', () => {
  it('passes when the dummy device is back', () => {
    expect(judge(out.kubeIpvs0Present)).toEqual([
      [true, 'kube-ipvs0 present (BROADCAST,NOARP, DOWN)'],
    ]);
  });

  it('fails when it is missing', () => {
    expect(judge(out.kubeIpvs0Missing)[0]?.[0]).toBe(false);
  });

  it('is unknown, so failed, when ip is not there', () => {
    expect(judge({ exitCode: 127, stdout: '', stderr: 'ip: command not found\n' })).toEqual([
      [
        false,
        'could not read the kube-ipvs0 interface: ip is not in the probe image (exit 127: ip: command not found)',
      ],
    ]);
  });
});
