/**
 * The verifications of a move, in the order the evidence is shown: after a cutover
 * (nftablesVerifications) and after a rollback (ipvsVerifications). Every one must pass for the
 * step to pass; a verification that throws (a bug) is failed evidence, never a pass.
 */
import type { Evidence } from '../core/run-state.js';
import { clusterIPVerification } from './clusterip.js';
import { evidence } from './evidence.js';
import { healthzVerification } from './healthz.js';
import { ipvsEmptyVerification } from './ipvs-empty.js';
import { ipvsServicesVerification } from './ipvs-services.js';
import { kubeIpvs0GoneVerification } from './kube-ipvs0-gone.js';
import { kubeIpvs0PresentVerification } from './kube-ipvs0-present.js';
import { nftTableGoneVerification } from './nft-table-gone.js';
import { nftTableVerification } from './nft-table.js';
import { nodePortVerification } from './nodeport.js';
import { ipvsLogVerification, nftablesLogVerification } from './proxier-log.js';
import { syncFailuresVerification } from './sync-failures.js';
import { syncFreshVerification } from './sync-fresh.js';
import { syncP99Verification } from './sync-p99.js';
import type { IpvsVerifyInput, NftablesVerifyInput, Verification, VerifyScope } from './types.js';

export const nftablesVerifications: readonly Verification<NftablesVerifyInput>[] = [
  nftTableVerification,
  ipvsEmptyVerification,
  kubeIpvs0GoneVerification,
  nftablesLogVerification,
  healthzVerification,
  syncFailuresVerification,
  syncFreshVerification,
  clusterIPVerification,
  nodePortVerification,
  syncP99Verification,
];

export const ipvsVerifications: readonly Verification<IpvsVerifyInput>[] = [
  ipvsServicesVerification,
  kubeIpvs0PresentVerification,
  nftTableGoneVerification,
  ipvsLogVerification,
  healthzVerification,
  clusterIPVerification,
  nodePortVerification,
];

/** Every verification's evidence; the step passes when every piece is ok. */
export function runVerifications<I extends VerifyScope>(
  list: readonly Verification<I>[],
  input: I,
): Evidence[] {
  return list.flatMap((v) => {
    try {
      const found = v.verify(input);
      return found.length > 0
        ? found
        : [evidence(input, v.id, undefined, false, `${v.title}: no evidence produced`)];
    } catch (error) {
      return [
        evidence(
          input,
          v.id,
          undefined,
          false,
          `${v.title}: could not be judged (${(error as Error).message})`,
        ),
      ];
    }
  });
}

export const allPassed = (found: readonly Evidence[]): boolean =>
  found.length > 0 && found.every((e) => e.ok);
