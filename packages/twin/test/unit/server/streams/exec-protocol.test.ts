import { describe, expect, it } from 'vitest';
import {
  execStatus,
  frames,
  negotiateProtocol,
  statusFrame,
} from '../../../../src/server/streams/exec-protocol.js';
import { StdinQueue } from '../../../../src/server/streams/stdin-queue.js';

const argv = ['sh', '-c', 'exit 3'];

describe('exec subprotocol negotiation', () => {
  it('picks the best protocol offered, whatever the order', () => {
    expect(negotiateProtocol(['v5.channel.k8s.io'])).toBe('v5.channel.k8s.io');
    expect(negotiateProtocol(['channel.k8s.io', 'v4.channel.k8s.io', 'v5.channel.k8s.io'])).toBe(
      'v5.channel.k8s.io',
    );
    expect(negotiateProtocol(['v3.channel.k8s.io', ' v2.channel.k8s.io'])).toBe(
      'v3.channel.k8s.io',
    );
    expect(negotiateProtocol(['channel.k8s.io'])).toBe('channel.k8s.io');
    expect(negotiateProtocol(['base64.channel.k8s.io', 'chat'])).toBeUndefined();
  });
});

describe('exec frames', () => {
  it('prefixes the channel byte and splits large payloads', () => {
    expect(frames(1, 'hi')).toEqual([Buffer.from([1, 0x68, 0x69])]);
    expect(frames(2, '')).toEqual([]);
    const big = frames(1, Buffer.alloc(70_000, 0x61));
    expect(big.map((f) => f.length)).toEqual([32_769, 32_769, 4_465]);
    expect(big.every((f) => f[0] === 1)).toBe(true);
  });

  it('encodes v4/v5 statuses as remotecommand marshals metav1.Status', () => {
    expect(statusFrame('v5.channel.k8s.io', { kind: 'exit', exitCode: 0 }, argv)).toEqual(
      Buffer.concat([Buffer.of(3), Buffer.from('{"metadata":{},"status":"Success"}')]),
    );
    const failure = statusFrame('v4.channel.k8s.io', { kind: 'exit', exitCode: 3 }, argv)!;
    expect(failure[0]).toBe(3);
    expect(JSON.parse(failure.subarray(1).toString())).toEqual({
      metadata: {},
      status: 'Failure',
      message:
        'command terminated with non-zero exit code: error executing command [sh -c exit 3], exit code 3',
      reason: 'NonZeroExitCode',
      details: { causes: [{ reason: 'ExitCode', message: '3' }] },
    });
    expect(execStatus({ kind: 'error', message: 'boom' }, argv)).toMatchObject({
      status: 'Failure',
      reason: 'InternalError',
      message: 'Internal error occurred: boom',
      code: 500,
    });
  });

  it('sends plain text, and nothing on success, for the pre-v4 protocols', () => {
    for (const p of ['v3.channel.k8s.io', 'v2.channel.k8s.io', 'channel.k8s.io'] as const) {
      expect(statusFrame(p, { kind: 'exit', exitCode: 0 }, argv)).toBeUndefined();
      expect(statusFrame(p, { kind: 'exit', exitCode: 3 }, argv)?.toString()).toBe(
        '\x03command terminated with non-zero exit code: error executing command [sh -c exit 3], exit code 3',
      );
    }
  });
});

describe('StdinQueue', () => {
  it('yields pushed chunks in order and ends', async () => {
    const q = new StdinQueue();
    const read = (async () => {
      const got: string[] = [];
      for await (const c of q) got.push(c.toString());
      return got;
    })();
    q.push(Buffer.from('a'));
    await new Promise((r) => setTimeout(r, 5));
    q.push(Buffer.from('b'));
    q.end();
    q.push(Buffer.from('ignored'));
    expect(await read).toEqual(['a', 'b']);
  });
});
