/**
 * After a cutover no IPVS virtual server may remain (playbook 000: "ipvsadm -Ln returns nothing").
 * kube-proxy flushes them at nftables start, but since PR #131243 it skips the whole IPVS cleanup
 * silently when modprobe fails in its container (facts §6), leaving the node degraded.
 */
import { hostPort } from '../core/ip.js';
import { evidence, plural, readable, sample } from './evidence.js';
import type { CommonVerifyInput, Verification } from './types.js';

type Input = Pick<CommonVerifyInput, 'node' | 'step' | 'now' | 'reads' | 'expected'>;

export const ipvsEmptyVerification: Verification<Input> = {
  id: 'ipvs-empty',
  title: 'no IPVS virtual servers left',
  verify(input) {
    const got = readable(
      input,
      'ipvs-empty',
      input.reads['ipvsadm-list'],
      'the IPVS table (ipvsadm -Ln)',
    );
    if (!got.ok) return [got.evidence];
    const { read, value } = got;
    if (!value.module)
      return [
        evidence(
          input,
          'ipvs-empty',
          read,
          true,
          'no ip_vs module loaded: no IPVS virtual servers',
        ),
      ];
    const left = value.virtualServers;
    if (left.length === 0)
      return [
        evidence(
          input,
          'ipvs-empty',
          read,
          true,
          'expected no IPVS virtual servers; ipvsadm -Ln lists none',
        ),
      ];
    const serviceIPs = new Set(input.expected.clusterIPs.map((c) => c.ip));
    const ofServices = left.filter((vs) => serviceIPs.has(vs.address)).length;
    const names = left.map((vs) => `${vs.protocol} ${hostPort(vs.address, vs.port)}`);
    return [
      evidence(
        input,
        'ipvs-empty',
        read,
        false,
        `expected no IPVS virtual servers; ${plural(left.length, 'remains', 'remain')} (${ofServices} on Service IPs): ${sample(names)}. kube-proxy's IPVS cleanup did not run (it is skipped silently when modprobe fails in its container, PR #131243); clear them with \`ipvsadm -C\` (it removes every virtual server on the host, not only kube-proxy's) or reboot the node`,
      ),
    ];
  },
};
