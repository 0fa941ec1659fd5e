/**
 * After a cutover the kube-ipvs0 dummy interface must be gone (playbook 000: "ip link show
 * kube-ipvs0 reports the device is gone"). It holds every Service IP as a local address, so while
 * it stays the host treats those IPs as its own; kube-proxy's IPVS cleanup, which deletes it, is
 * skipped silently when modprobe fails in its container (facts §6, PR #131243).
 */
import { evidence, readable } from './evidence.js';
import type { CommonVerifyInput, Verification } from './types.js';
import { valueOf } from '../probes/read.js';

type Input = Pick<CommonVerifyInput, 'node' | 'step' | 'now' | 'reads'>;

export const kubeIpvs0GoneVerification: Verification<Input> = {
  id: 'kube-ipvs0-gone',
  title: 'kube-ipvs0 removed',
  verify(input) {
    const got = readable(
      input,
      'kube-ipvs0-gone',
      input.reads['kube-ipvs0'],
      'the kube-ipvs0 interface',
    );
    if (!got.ok) return [got.evidence];
    const { read, value } = got;
    if (!value.present)
      return [
        evidence(
          input,
          'kube-ipvs0-gone',
          read,
          true,
          'expected no kube-ipvs0; ip link says it does not exist',
        ),
      ];
    const held = valueOf(input.reads['host-addresses'])?.find((l) => l.name === 'kube-ipvs0')
      ?.addresses.length;
    const holding =
      held === undefined ? 'still holds the Service IPs' : `still holds ${held} Service IPs`;
    return [
      evidence(
        input,
        'kube-ipvs0-gone',
        read,
        false,
        `expected no kube-ipvs0; it is still there and ${holding} as local addresses, so the host answers for them itself wherever no nftables rule applies (ports a Service does not define, IPs of Services deleted since). kube-proxy's IPVS cleanup was skipped (silently, when modprobe fails in its container, PR #131243); remove it with \`ip link delete kube-ipvs0\``,
      ),
    ];
  },
};
