import { describe, expect, it } from 'vitest';
import { probeContext } from '../../../src/probes/context.js';
import { curlNodePortProbe } from '../../../src/probes/curl-nodeport.js';
import { nodePortPeer, nodePortRefused } from '../../fixtures/node-outputs.js';

describe('curl-nodeport', () => {
  it('dials a node address and NodePort', () => {
    const ctx = { ...probeContext({}), target: { host: '10.0.1.11', port: 30080 } };
    expect(curlNodePortProbe.argv(ctx).at(-1)).toBe('http://10.0.1.11:30080/');
    expect(curlNodePortProbe.argv(ctx)).toContain('--max-time');
  });

  it('reads an answer from a peer and a refusal', () => {
    expect(curlNodePortProbe.parse(nodePortPeer)).toEqual({ kind: 'http', status: 200 });
    expect(curlNodePortProbe.parse(nodePortRefused)).toMatchObject({ kind: 'refused' });
  });
});
