import { describe, expect, it } from 'vitest';
import { clusterIPVerification } from '../../../src/verify/clusterip.js';
import * as out from '../../fixtures/node-outputs.js';
import { nftablesInput, reach, webClusterIP } from './inputs.js';

function judge(result: out.NodeOutput | undefined, from = 'general-1') {
  const input = nftablesInput();
  input.reachability = {
    ...input.reachability,
    reads: result === undefined ? [] : [reach(webClusterIP, from, result)],
  };
  return clusterIPVerification.verify(input).map((e) => [e.probe, e.ok, e.verdict]);
}

describe('clusterip-from-node', () => {
  it('passes when the ClusterIP answers from the node', () => {
    expect(judge(out.clusterIP200)).toEqual([
      [
        'clusterip-from-node',
        true,
        '10.102.33.71:80 (default/web) from general-1 answered: HTTP 200',
      ],
    ]);
    // A non-HTTP backend that accepted the connection counts.
    expect(
      judge({
        exitCode: 52,
        stdout: '000',
        stderr: 'curl: (52) Empty reply from server\n',
      })[0]?.[1],
    ).toBe(true);
  });

  it('fails when it is refused or times out', () => {
    expect(
      judge({
        exitCode: 28,
        stdout: '000',
        stderr: 'curl: (28) Connection timed out after 2002 milliseconds\n',
      }),
    ).toEqual([
      [
        'clusterip-from-node',
        false,
        'expected 10.102.33.71:80 (default/web) from general-1 to answer; timed out (curl: (28) Connection timed out after 2002 milliseconds)',
      ],
    ]);
  });

  it('is unknown, so failed, when not probed from this node or without a target', () => {
    expect(judge(out.clusterIP200, 'compute-1')[0]).toEqual([
      'clusterip-from-node',
      false,
      '10.102.33.71:80 (default/web) from general-1 was not read: unknown',
    ]);
    expect(judge(undefined)[0]?.[1]).toBe(false);
    const input = nftablesInput();
    input.reachability = { ...input.reachability, clusterIP: [] };
    expect(clusterIPVerification.verify(input)[0]?.verdict).toBe(
      'no ClusterIP target was given: the node’s Service path is unverified',
    );
  });
});
