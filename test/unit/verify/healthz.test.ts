import { describe, expect, it } from 'vitest';
import { healthzVerification } from '../../../src/verify/healthz.js';
import * as out from '../../fixtures/node-outputs.js';
import { nftablesInput, read } from './inputs.js';

const body = (o: Record<string, unknown>, status: number): out.NodeOutput => ({
  exitCode: 0,
  stdout: `${JSON.stringify({ lastUpdated: 'a', currentTime: 'b', ...o })}\n${status}`,
  stderr: '',
});

function judge(healthz: out.NodeOutput, livez?: out.NodeOutput) {
  const input = nftablesInput();
  const { livez: _, ...reads } = input.reads;
  input.reads = {
    ...reads,
    healthz: read('healthz', healthz),
    ...(livez === undefined ? {} : { livez: read('livez', livez) }),
  };
  return healthzVerification.verify(input).map((e) => [e.ok, e.verdict]);
}

describe('healthz', () => {
  it('passes on 200', () => {
    expect(judge(out.healthz200)).toEqual([[true, 'expected /healthz 200; got 200']]);
  });

  it('fails on a 503 from a proxier that is not syncing', () => {
    expect(judge(out.healthz503)).toEqual([
      [
        false,
        'expected /healthz 200; got 503: an update has been queued longer than 2 × syncPeriod, so kube-proxy is not syncing its rules',
      ],
    ]);
  });

  it('does not blame kube-proxy for a 503 on a node being deleted (nodeEligible false)', () => {
    const leaving =
      '/healthz 503 because the node is being deleted or removed by the cluster autoscaler (nodeEligible false), which is not a kube-proxy fault';
    expect(judge(body({ nodeEligible: false, healthy: true }, 503))).toEqual([
      [true, `${leaving}; kube-proxy itself is healthy ("healthy": true)`],
    ]);
    expect(judge(body({ nodeEligible: false }, 503), out.livez200)).toEqual([
      [true, `${leaving}; kube-proxy itself is healthy (/livez 200)`],
    ]);
    expect(judge(body({ nodeEligible: false }, 503), body({}, 503))).toEqual([
      [false, `${leaving}, and kube-proxy itself is unhealthy too (/livez 503)`],
    ]);
    expect(judge(body({ nodeEligible: false }, 503))).toEqual([
      [false, `${leaving}; kube-proxy's own health is unknown (/livez was not read)`],
    ]);
  });

  it('is unknown, so failed, when nothing answers', () => {
    expect(
      judge({
        exitCode: 7,
        stdout: '000',
        stderr:
          "curl: (7) Failed to connect to 127.0.0.1 port 10256 after 0 ms: Couldn't connect to server\n",
      }),
    ).toEqual([
      [
        false,
        "could not read kube-proxy’s /healthz: curl: (7) Failed to connect to 127.0.0.1 port 10256 after 0 ms: Couldn't connect to server",
      ],
    ]);
  });
});
