import { describe, expect, it } from 'vitest';
import { probeContext } from '../../../src/probes/context.js';
import { proxyModeNodeIPProbe, proxyModeProbe } from '../../../src/probes/proxy-mode.js';
import {
  proxyModeIpvs,
  proxyModeNft,
  proxyModeNodeIPRefused,
} from '../../fixtures/node-outputs.js';

describe('proxy-mode', () => {
  const ctx = probeContext({ nodeIP: '10.0.1.11' });

  it('curls /proxyMode on the metrics address, with --max-time', () => {
    expect(proxyModeProbe.argv(ctx)).toEqual([
      'curl',
      '-sS',
      '--max-time',
      '3',
      'http://127.0.0.1:10249/proxyMode',
    ]);
    expect(proxyModeProbe.parse(proxyModeIpvs)).toBe('ipvs');
    expect(proxyModeProbe.parse(proxyModeNft)).toBe('nftables');
  });

  it('has a node-IP variant for metrics bound to the node address', () => {
    expect(proxyModeNodeIPProbe.argv(ctx)).toEqual([
      'curl',
      '-sS',
      '--max-time',
      '3',
      'http://10.0.1.11:10249/proxyMode',
    ]);
    expect(proxyModeNodeIPProbe.applies?.(ctx)).toBe(true);
    expect(proxyModeNodeIPProbe.applies?.(probeContext({}))).toBe(false);
    // Bound to the node IP already: the first probe dials it, the variant would repeat it.
    expect(
      proxyModeNodeIPProbe.applies?.(
        probeContext({ nodeIP: '10.0.1.11', metricsBindAddress: '10.0.1.11:10249' }),
      ),
    ).toBe(false);
  });

  it('is an error when nothing answers or the answer is not a mode', () => {
    expect(proxyModeNodeIPProbe.parse(proxyModeNodeIPRefused)).toMatchObject({ code: 'failed' });
    expect(
      proxyModeProbe.parse({
        exitCode: 28,
        stdout: '',
        stderr: 'curl: (28) Connection timed out after 3001 milliseconds\n',
      }),
    ).toEqual({
      kind: 'probe-error',
      code: 'timed-out',
      message: 'kube-proxy’s /proxyMode: curl: (28) Connection timed out after 3001 milliseconds',
    });
    expect(
      proxyModeProbe.parse({ exitCode: 0, stdout: '404 page not found\n', stderr: '' }),
    ).toMatchObject({ code: 'unparsable' });
  });
});
