import { describe, expect, it } from 'vitest';
import { probeContext } from '../../../src/probes/context.js';
import { healthzProbe, livezProbe } from '../../../src/probes/healthz.js';
import { healthz200, healthz503, livez200 } from '../../fixtures/node-outputs.js';

describe('healthz and livez', () => {
  const ctx = probeContext({ healthzBindAddress: '0.0.0.0:10256' });

  it('curl the health server with the status on its own line', () => {
    expect(healthzProbe.argv(ctx)).toEqual([
      'curl',
      '-sS',
      '--max-time',
      '3',
      '-w',
      '\\n%{http_code}',
      'http://127.0.0.1:10256/healthz',
    ]);
    expect(livezProbe.argv(ctx).at(-1)).toBe('http://127.0.0.1:10256/livez');
  });

  it('read 200 and 503 as answers', () => {
    expect(healthzProbe.parse(healthz200)).toMatchObject({
      statusCode: 200,
      healthy: true,
      nodeEligible: true,
    });
    expect(healthzProbe.parse(healthz503)).toMatchObject({
      statusCode: 503,
      healthy: false,
      nodeEligible: true,
    });
    const livez = livezProbe.parse(livez200);
    expect('statusCode' in livez && livez.nodeEligible).toBeUndefined();
  });

  it('is an error when the server does not answer or the body is not kube-proxy’s', () => {
    expect(
      healthzProbe.parse({
        exitCode: 7,
        stdout: '000',
        stderr:
          "curl: (7) Failed to connect to 127.0.0.1 port 10256 after 0 ms: Couldn't connect to server\n",
      }),
    ).toEqual({
      kind: 'probe-error',
      code: 'failed',
      message:
        "kube-proxy’s /healthz: curl: (7) Failed to connect to 127.0.0.1 port 10256 after 0 ms: Couldn't connect to server",
    });
    expect(
      healthzProbe.parse({ exitCode: 0, stdout: '{"lastUpdated":"x"}', stderr: '' }),
    ).toMatchObject({ code: 'unparsable' });
    expect(
      healthzProbe.parse({ exitCode: 0, stdout: '404 page not found\n\n404', stderr: '' }),
    ).toMatchObject({ code: 'unparsable' });
  });
});
