import { describe, expect, it } from 'vitest';
import { kubeIpvs0GoneVerification } from '../../../src/verify/kube-ipvs0-gone.js';
import * as out from '../../fixtures/node-outputs.js';
import { nftablesInput, read } from './inputs.js';

function judge(link: out.NodeOutput, addresses = out.hostAddressesNft) {
  const input = nftablesInput();
  input.reads = {
    ...input.reads,
    'kube-ipvs0': read('kube-ipvs0', link),
    'host-addresses': read('host-addresses', addresses),
  };
  return kubeIpvs0GoneVerification.verify(input);
}

describe('kube-ipvs0-gone', () => {
  it('passes when the device does not exist', () => {
    expect(judge(out.kubeIpvs0Missing).map((e) => [e.ok, e.verdict])).toEqual([
      [true, 'expected no kube-ipvs0; ip link says it does not exist'],
    ]);
  });

  it('fails on a leftover kube-ipvs0, counting the addresses it holds, with the remedy and why', () => {
    const [e] = judge(out.kubeIpvs0Present, out.hostAddressesIpvs);
    expect(e?.ok).toBe(false);
    expect(e?.verdict).toContain('still holds 4 Service IPs as local addresses');
    expect(e?.verdict).toContain('`ip link delete kube-ipvs0`');
    expect(e?.verdict).toContain('PR #131243');
  });

  it('is unknown, so failed, when ip could not read it', () => {
    const [e] = judge({
      exitCode: 255,
      stdout: '',
      stderr: 'Cannot open netlink socket: Operation not permitted\n',
    });
    expect(e?.ok).toBe(false);
    expect(e?.verdict).toBe(
      'could not read the kube-ipvs0 interface: ip link show exited 255: Cannot open netlink socket: Operation not permitted',
    );
  });
});
