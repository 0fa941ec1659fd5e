// The real @kubernetes/client-node 1.4 Exec (v5 and v4) and Log against the twin, plus raw `ws`
// clients for the older subprotocols and the frames a client must never see (channel 255).
import type { V1Status } from '@kubernetes/client-node';
import { ApiException, Exec, KubeConfig, Log } from '@kubernetes/client-node';
import { WebSocketHandler } from '@kubernetes/client-node/dist/web-socket-handler.js';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { eventually } from '../../../src/testing/wait.js';
import { resourceFor } from '../../../src/index.js';
import type { Harness } from './harness.js';
import { StubLogs, createRunningPod, execAborts, startHarness, stubExec } from './harness.js';

let h: Harness;
let plain: Harness;
let kc: KubeConfig;
const logs = new StubLogs();

beforeAll(async () => {
  h = await startHarness({ exec: stubExec, logs: logs.provider, execTimeoutSeconds: 1 });
  plain = await startHarness();
  createRunningPod(h.registry, 'kp-1');
  createRunningPod(plain.registry, 'kp-1');
  kc = new KubeConfig();
  kc.loadFromString(h.kubeconfigYaml);
});

afterAll(async () => {
  await h.close();
  await plain.close();
});

interface ExecRun {
  stdout: string;
  stderr: string;
  status: V1Status | undefined;
  protocol: string;
}

async function run(exec: Exec, command: string[], stdin: Readable | null = null): Promise<ExecRun> {
  const out = new PassThrough();
  const err = new PassThrough();
  let stdout = '';
  let stderr = '';
  out.on('data', (c: Buffer) => (stdout += c.toString()));
  err.on('data', (c: Buffer) => (stderr += c.toString()));
  let status: V1Status | undefined;
  const ws = await exec.exec(
    'kube-system',
    'kp-1',
    'kube-proxy',
    command,
    out,
    err,
    stdin,
    false,
    (s) => {
      status = s;
    },
  );
  await new Promise((resolve) => ws.on('close', resolve));
  return { stdout, stderr, status, protocol: ws.protocol };
}

function v4Exec(): Exec {
  const handler = new WebSocketHandler(
    kc,
    (uri, _protocols, opts) => new WebSocket(uri, ['v4.channel.k8s.io'], opts),
  );
  return new Exec(kc, handler);
}

describe('client-node Exec', () => {
  it('gets v5, the output and a Success status', async () => {
    const r = await run(new Exec(kc), ['echo', 'hello', 'world']);
    expect(r).toEqual({
      stdout: 'hello world\n',
      stderr: '',
      status: { metadata: {}, status: 'Success' },
      protocol: 'v5.channel.k8s.io',
    });
  });

  it('gets the NonZeroExitCode status intact', async () => {
    const r = await run(new Exec(kc), ['exit', '3']);
    expect(r.stderr).toBe('exiting 3\n');
    expect(r.status).toEqual({
      metadata: {},
      status: 'Failure',
      message:
        'command terminated with non-zero exit code: error executing command [exit 3], exit code 3',
      reason: 'NonZeroExitCode',
      details: { causes: [{ reason: 'ExitCode', message: '3' }] },
    });
  });

  it('speaks v4 when only v4 is offered', async () => {
    const ok = await run(v4Exec(), ['echo', 'v4']);
    expect(ok.protocol).toBe('v4.channel.k8s.io');
    expect(ok.stdout).toBe('v4\n');
    expect(ok.status?.status).toBe('Success');
    expect((await run(v4Exec(), ['exit', '5'])).status?.details?.causes?.[0]?.message).toBe('5');
  });

  it('streams stdin and ends it on the v5 close message', async () => {
    const r = await run(
      new Exec(kc),
      ['cat'],
      Readable.from([Buffer.from('a'), Buffer.from('b\n')]),
    );
    expect(r.stdout).toBe('ab\n');
    expect(r.status?.status).toBe('Success');
  });

  it('ends a provider that misses the deadline with a Failure status', async () => {
    const r = await run(new Exec(kc), ['sleep']);
    expect(r.status).toMatchObject({ status: 'Failure', reason: 'InternalError' });
    expect(r.status?.message).toContain('did not finish within 1s');
  });

  it('uses the default provider when none is given: exit 127, command not found', async () => {
    const pkc = new KubeConfig();
    pkc.loadFromString(plain.kubeconfigYaml);
    const out = new PassThrough();
    const err = new PassThrough();
    let stderr = '';
    err.on('data', (c: Buffer) => (stderr += c.toString()));
    let status: V1Status | undefined;
    const ws = await new Exec(pkc).exec(
      'kube-system',
      'kp-1',
      'kube-proxy',
      ['nft', '--version'],
      out,
      err,
      null,
      false,
      (s) => (status = s),
    );
    await new Promise((resolve) => ws.on('close', resolve));
    expect(stderr).toBe('nft: command not found\n');
    expect(status?.details?.causes?.[0]?.message).toBe('127');
  });
});

/** Every frame a raw client receives, and how the socket closed. */
async function rawExec(
  path: string,
  protocols: string[] | undefined,
): Promise<{ frames: Buffer[]; code: number; protocol: string }> {
  const ws = new WebSocket(`${h.url.replace('http', 'ws')}${path}`, protocols);
  const frames: Buffer[] = [];
  ws.on('message', (data: Buffer) => frames.push(data));
  const code = await new Promise<number>((resolve, reject) => {
    ws.on('close', resolve);
    ws.on('error', reject);
  });
  return { frames, code, protocol: ws.protocol };
}

const execPath = (cmd: string[]) =>
  `/api/v1/namespaces/kube-system/pods/kp-1/exec?${cmd.map((c) => `command=${c}`).join('&')}&stdout=true&stderr=true`;

describe('exec subprotocols on the wire', () => {
  it('sends one status frame, closes with 1000 and never uses channel 255', async () => {
    const r = await rawExec(execPath(['exit', '2']), ['v5.channel.k8s.io']);
    expect(r.code).toBe(1000);
    expect(r.protocol).toBe('v5.channel.k8s.io');
    expect(r.frames.map((f) => f[0])).toEqual([1, 2, 3]);
    expect(r.frames[0]!.length).toBe(1);
  });

  it('speaks channel.k8s.io: plain-text errors and no status on success', async () => {
    const fail = await rawExec(execPath(['exit', '2']), ['channel.k8s.io']);
    expect(fail.protocol).toBe('channel.k8s.io');
    expect(fail.frames.at(-1)!.toString()).toBe(
      '\x03command terminated with non-zero exit code: error executing command [exit 2], exit code 2',
    );
    const ok = await rawExec(execPath(['echo', 'x']), ['v2.channel.k8s.io', 'v3.channel.k8s.io']);
    expect(ok.protocol).toBe('v3.channel.k8s.io');
    expect(ok.frames.map((f) => f[0])).toEqual([1, 1]);
    const none = await rawExec(execPath(['echo', 'y']), undefined);
    expect(none.protocol).toBe('');
    expect(none.frames.at(-1)!.toString()).toBe('\x01y\n');
  });

  it('refuses unknown subprotocols and plain requests with a Status', async () => {
    await expect(rawExec(execPath(['echo']), ['base64.channel.k8s.io'])).rejects.toThrow(/400/);
    const res = await fetch(`${h.url}${execPath(['echo'])}`, { method: 'POST' });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      reason: 'BadRequest',
      message: 'Upgrade request required',
    });
    const container = await fetch(`${h.url}${execPath(['echo'])}&container=nope`);
    expect(((await container.json()) as { message: string }).message).toBe(
      'container nope is not valid for pod kp-1',
    );
  });
});

describe('exec into a container that does not run', () => {
  const path = '/api/v1/namespaces/kube-system/pods/idle/exec?command=ls&stdout=true';

  it('gets the kubelet’s raw 500 without v5, and the translator’s InternalError with it', async () => {
    h.registry.create(resourceFor('pods'), {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'idle', namespace: 'kube-system' },
      spec: { nodeName: 'cp-1', containers: [{ name: 'kube-proxy', image: 'x' }] },
    });
    const raw = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const ws = new WebSocket(`${h.url.replace('http', 'ws')}${path}`, ['v4.channel.k8s.io']);
      ws.on('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      ws.on('open', () => reject(new Error('upgraded')));
      ws.on('error', () => undefined);
    });
    expect(raw).toEqual({ status: 500, body: 'container not found ("kube-proxy")' });
    const v5 = await rawExec(path, ['v5.channel.k8s.io']);
    expect(v5.frames.map((f) => f[0])).toEqual([1, 3]);
    expect(JSON.parse(v5.frames[1]!.subarray(1).toString())).toEqual({
      metadata: {},
      status: 'Failure',
      message:
        'Internal error occurred: unable to upgrade connection: container not found ("kube-proxy")',
      reason: 'InternalError',
      details: {
        causes: [{ message: 'unable to upgrade connection: container not found ("kube-proxy")' }],
      },
      code: 500,
    });
  });
});

describe('exec sessions ending early', () => {
  it('aborts the provider when the client goes away', async () => {
    const before = execAborts.count;
    const ws = new WebSocket(`${h.url.replace('http', 'ws')}${execPath(['block'])}`, [
      'v5.channel.k8s.io',
    ]);
    await new Promise((resolve) => ws.on('message', resolve));
    ws.terminate();
    await eventually(
      'the provider aborted',
      () => (execAborts.count === before ? undefined : true),
      5000,
    );
    expect(execAborts.count).toBe(before + 1);
  });

  it('ends open sessions when the server stops them', async () => {
    const ws = new WebSocket(`${h.url.replace('http', 'ws')}${execPath(['sleep'])}`, [
      'v5.channel.k8s.io',
    ]);
    await new Promise((resolve) => ws.on('message', resolve));
    const closed = new Promise((resolve) => ws.on('close', resolve));
    h.api.stopWatches();
    expect(await closed).toBe(1006);
  });
});

describe('client-node Log', () => {
  it('reads a log and honours tailLines', async () => {
    logs.append('kp-1', 'kube-proxy', 'one');
    logs.append('kp-1', 'kube-proxy', 'two');
    const read = async (opts: { tailLines?: number }) => {
      const sink = new PassThrough();
      let text = '';
      sink.on('data', (c: Buffer) => (text += c.toString()));
      const done = new Promise((resolve) => sink.on('finish', resolve));
      await new Log(kc).log('kube-system', 'kp-1', 'kube-proxy', sink, opts);
      await done;
      return text;
    };
    expect(await read({})).toBe('one\ntwo\n');
    expect(await read({ tailLines: 1 })).toBe('two\n');
  });

  it('follows until aborted', async () => {
    const sink = new PassThrough();
    let text = '';
    sink.on('data', (c: Buffer) => (text += c.toString()));
    // client-node 2 pipes `Readable.fromWeb(response.body)` into the sink without an error
    // listener, so its abort surfaces as an uncaught AbortError; the source arrives with 'pipe'.
    let aborted = false;
    sink.on('pipe', (source: NodeJS.ReadableStream) =>
      source.on('error', (error: Error) => {
        if (error.name !== 'AbortError') throw error;
        aborted = true;
      }),
    );
    const controller = await new Log(kc).log('kube-system', 'kp-1', 'kube-proxy', sink, {
      follow: true,
    });
    logs.append('kp-1', 'kube-proxy', 'live');
    try {
      await eventually('the followed line', () => (text.includes('live') ? true : undefined), 5000);
    } finally {
      controller.abort();
    }
    expect(text).toBe('one\ntwo\nlive\n');
    await eventually('the abort', () => (aborted ? true : undefined), 5000);
  });

  it('throws ApiException 400 for a bad container', async () => {
    const error = await new Log(kc).log('kube-system', 'kp-1', 'nope', new PassThrough(), {}).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiException);
    expect((error as ApiException<unknown>).code).toBe(400);
  });

  it('names the choices when a multi-container pod gets no container', async () => {
    createRunningPod(h.registry, 'multi', ['a', 'b']);
    const res = await fetch(`${h.url}/api/v1/namespaces/kube-system/pods/multi/log`);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toBe(
      'a container name must be specified for pod multi, choose one of: [a b]',
    );
  });
});
