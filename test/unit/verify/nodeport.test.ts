import { describe, expect, it } from 'vitest';
import { nodePortVerification } from '../../../src/verify/nodeport.js';
import { expectedServices } from '../../../src/verify/expected.js';
import type { ReachabilityTarget } from '../../../src/verify/types.js';
import * as out from '../../fixtures/node-outputs.js';
import { nftablesInput, reach, services, webNodePort } from './inputs.js';

const secondary: ReachabilityTarget = {
  ...webNodePort,
  host: '192.168.50.21',
  address: 'secondary',
};
const judge = (input: ReturnType<typeof nftablesInput>) =>
  nodePortVerification.verify(input).map((e) => [e.probe, e.ok, e.verdict]);

describe('nodeport', () => {
  it('passes when the NodePort answers from the node and from a peer still on IPVS', () => {
    expect(judge(nftablesInput())).toEqual([
      [
        'nodeport-from-node',
        true,
        '10.30.1.11:30080 (default/web) from general-1 answered: HTTP 200',
      ],
      [
        'nodeport-from-peer',
        true,
        '10.30.1.11:30080 (default/web) from compute-1 (still on IPVS) answered: HTTP 200',
      ],
    ]);
  });

  it('fails on a secondary address nftables stopped answering (nodePortAddresses primary)', () => {
    const input = nftablesInput();
    input.reachability = {
      ...input.reachability,
      nodePort: [webNodePort, secondary],
      reads: [
        ...input.reachability.reads,
        reach(secondary, 'general-1', out.nodePortRefused),
        reach(secondary, 'compute-1', out.nodePortRefused),
      ],
    };
    const found = judge(input);
    expect(found.map((e) => e[1])).toEqual([true, true, false, false]);
    expect(found[3]?.[2]).toBe(
      "expected 192.168.50.21:30080 (default/web, secondary address) from compute-1 (still on IPVS) to answer; refused (curl: (7) Failed to connect to 10.30.1.11 port 30081 after 0 ms: Couldn't connect to server)",
    );
  });

  it('is unknown, so failed, without a peer or without targets while NodePorts exist', () => {
    const input = nftablesInput();
    const { peer: _, ...rest } = input.reachability;
    expect(judge({ ...input, reachability: rest })[1]).toEqual([
      'nodeport-from-peer',
      false,
      'no other node to call 10.30.1.11:30080 (default/web) from: the off-node path is unverified; check it from outside the cluster',
    ]);
    expect(judge({ ...input, reachability: { ...input.reachability, nodePort: [] } })).toEqual([
      [
        'nodeport-from-node',
        false,
        'NodePort Services exist but no address:nodePort target was given: NodePorts are unverified',
      ],
    ]);
  });

  it('has nothing to check when no Service opens a NodePort', () => {
    const input = nftablesInput();
    const clusterOnly = services('nftables-done').filter((s) => s.spec?.type !== 'NodePort');
    expect(
      judge({
        ...input,
        expected: expectedServices(clusterOnly),
        reachability: { ...input.reachability, nodePort: [] },
      }),
    ).toEqual([['nodeport-from-node', true, 'no Service opens a NodePort: nothing to check']]);
  });
});
