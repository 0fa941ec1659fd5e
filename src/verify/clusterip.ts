/** A ClusterIP must answer from the node through its own dataplane (playbook 001: "Curl a ClusterIP … from that node"). */
import { evidence } from './evidence.js';
import { findRead, judgeReach } from './reach.js';
import type { CommonVerifyInput, Verification } from './types.js';

type Input = Pick<CommonVerifyInput, 'node' | 'step' | 'now' | 'reachability'>;
const ID = 'clusterip-from-node';

export const clusterIPVerification: Verification<Input> = {
  id: ID,
  title: 'a ClusterIP answers from the node',
  verify(input) {
    const { clusterIP, reads } = input.reachability;
    if (clusterIP.length === 0)
      return [
        evidence(
          input,
          ID,
          undefined,
          false,
          'no ClusterIP target was given: the node’s Service path is unverified',
        ),
      ];
    return clusterIP.map((t) =>
      judgeReach(input, ID, t, input.node, findRead(reads, t, input.node)),
    );
  },
};
