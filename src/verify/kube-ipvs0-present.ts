/**
 * After a rollback kube-ipvs0 must exist again: IPVS mode binds every Service IP to it so the
 * kernel accepts their traffic locally for IPVS to balance (facts §6).
 */
import { evidence, readable } from './evidence.js';
import type { CommonVerifyInput, Verification } from './types.js';

type Input = Pick<CommonVerifyInput, 'node' | 'step' | 'now' | 'reads'>;
const ID = 'kube-ipvs0-present';

export const kubeIpvs0PresentVerification: Verification<Input> = {
  id: ID,
  title: 'kube-ipvs0 present',
  verify(input) {
    const got = readable(input, ID, input.reads['kube-ipvs0'], 'the kube-ipvs0 interface');
    if (!got.ok) return [got.evidence];
    const { read, value } = got;
    return [
      value.present
        ? evidence(
            input,
            ID,
            read,
            true,
            `kube-ipvs0 present (${value.link.flags.join(',')}, ${value.link.operstate})`,
          )
        : evidence(
            input,
            ID,
            read,
            false,
            'expected kube-ipvs0; it does not exist, so the Service IPs are not local addresses and IPVS does not receive their traffic',
          ),
    ];
  },
};
