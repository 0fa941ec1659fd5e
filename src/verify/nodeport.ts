/**
 * The node's NodePort must answer on every address its callers use, from the node itself and
 * from another node (playbook 001: "Curl the NodePort from off-node, using whichever address your
 * callers actually use"): nftables answers only on nodePortAddresses, primary by default, where
 * IPVS answered on all (facts §8). The peer should still run IPVS, a known-good client.
 */
import { evidence } from './evidence.js';
import { findRead, judgeReach, targetText } from './reach.js';
import type { CommonVerifyInput, Verification } from './types.js';

type Input = Pick<CommonVerifyInput, 'node' | 'step' | 'now' | 'reachability' | 'expected'>;

export const nodePortVerification: Verification<Input> = {
  id: 'nodeport',
  title: 'the NodePort answers from the node and from another node',
  verify(input) {
    const { nodePort, reads, peer } = input.reachability;
    if (nodePort.length === 0) {
      const exists = input.expected.ports.some((p) => p.nodePort !== undefined);
      return [
        exists
          ? evidence(
              input,
              'nodeport-from-node',
              undefined,
              false,
              'NodePort Services exist but no address:nodePort target was given: NodePorts are unverified',
            )
          : evidence(
              input,
              'nodeport-from-node',
              undefined,
              true,
              'no Service opens a NodePort: nothing to check',
            ),
      ];
    }
    return nodePort.flatMap((t) => {
      const self = judgeReach(
        input,
        'nodeport-from-node',
        t,
        input.node,
        findRead(reads, t, input.node),
      );
      if (peer === undefined)
        return [
          self,
          evidence(
            input,
            'nodeport-from-peer',
            undefined,
            false,
            `no other node to call ${targetText(t)} from: the off-node path is unverified; check it from outside the cluster`,
          ),
        ];
      const note = peer.migrated ? ' (already on nftables)' : ' (still on IPVS)';
      return [
        self,
        judgeReach(input, 'nodeport-from-peer', t, peer.node, findRead(reads, t, peer.node), note),
      ];
    });
  },
};
