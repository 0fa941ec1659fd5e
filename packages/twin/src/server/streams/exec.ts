// Exec into a pod: the provider contract, the request checks the apiserver and kubelet make before
// a stream opens, and one WebSocket session (stdin in, output and exactly one status out).

import type { WebSocket } from 'ws';
import { badRequest } from '../../apimachinery/errors.js';
import { queryFlag } from '../http-util.js';
import type { ResourceTarget } from '../routes.js';
import type { ObjectStore } from '../../store/store.js';
import type { KubeObject } from '../../apimachinery/types.js';
import type { ExecOutcome, ExecProtocol } from './exec-protocol.js';
import { channel, frames, statusFrame } from './exec-protocol.js';
import { findPod, podNodeName, resolveContainer } from './pod-target.js';
import { StdinQueue } from './stdin-queue.js';

export interface ExecRequest {
  pod: KubeObject;
  container: string;
  command: string[];
  /** Present when the client asked for stdin; ends when the client closes stdin or leaves. */
  stdin?: AsyncIterable<Buffer> | undefined;
  tty?: boolean;
  /** Aborted when the client goes away or the deadline passes. */
  signal?: AbortSignal;
}

export interface ExecResult {
  exitCode: number;
  stdout: string | Buffer;
  stderr: string | Buffer;
}

export type ExecProvider = (req: ExecRequest) => Promise<ExecResult>;

/** TWIN.md: anything the node model does not know exits 127 with `command not found`. */
export const defaultExecProvider: ExecProvider = (req) =>
  Promise.resolve({
    exitCode: 127,
    stdout: '',
    stderr: `${req.command[0] ?? ''}: command not found\n`,
  });

export interface ExecParams {
  pod: KubeObject;
  container: string;
  command: string[];
  stdin: boolean;
  stdout: boolean;
  stderr: boolean;
  tty: boolean;
}

/** Every check that must fail before the upgrade, so kubectl's SPDY retry gets the same error. */
export function parseExecParams(
  store: ObjectStore,
  target: ResourceTarget,
  query: URLSearchParams,
): ExecParams {
  const pod = findPod(store, target.namespace, target.name ?? '');
  const container = resolveContainer(pod, query.get('container'));
  const podName = pod.metadata.name ?? '';
  if (podNodeName(pod) === '') throw badRequest(`pod ${podName} does not have a host assigned`);
  const params: ExecParams = {
    pod,
    container,
    command: query.getAll('command'),
    stdin: queryFlag(query, 'stdin'),
    stdout: queryFlag(query, 'stdout'),
    stderr: queryFlag(query, 'stderr'),
    tty: queryFlag(query, 'tty'),
  };
  if (!params.stdin && !params.stdout && !params.stderr)
    throw badRequest('you must specify at least 1 of stdin, stdout, stderr');
  if (params.tty && params.stderr) throw badRequest('you may not specify tty=true and stderr=true');
  if (params.command.length === 0)
    throw badRequest('you must specify at least one command for the container');
  // Whether the container runs is the kubelet's to say, after the upgrade (kubelet.ts).
  return params;
}

/** Settles with the provider, or fails at the deadline or when the client leaves (`abort`). */
function settle<T>(work: Promise<T>, ms: number, abort: AbortController): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const finish = (then: () => void): void => {
      clearTimeout(timer);
      abort.signal.removeEventListener('abort', onAbort);
      then();
    };
    const onAbort = (): void => finish(() => reject(new Error('twin: the client went away')));
    const timer = setTimeout(() => {
      finish(() => reject(new Error(`twin: the command did not finish within ${ms / 1000}s`)));
      abort.abort();
    }, ms);
    abort.signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => finish(() => resolve(value)),
      (error: unknown) =>
        finish(() => reject(error instanceof Error ? error : new Error(String(error)))),
    );
  });
}

class RefusedError extends Error {}

/** Providers are plugged in by other modules; tolerate a missing stream rather than crash. */
function bytes(output: string | Buffer | undefined): string | Buffer {
  return typeof output === 'string' || Buffer.isBuffer(output) ? output : '';
}

/**
 * Runs the command for one accepted WebSocket; resolves once the status is sent and closed.
 * `refusal` is the error the apiserver's stream translator met reaching the kubelet: the session
 * then ends with it as an InternalError instead of running anything.
 */
export async function runExecSession(
  ws: WebSocket,
  protocol: ExecProtocol,
  params: ExecParams,
  provider: ExecProvider,
  timeoutMs: number,
  refusal?: string,
): Promise<void> {
  const abort = new AbortController();
  const stdin = params.stdin ? new StdinQueue() : undefined;
  ws.on('message', (data: Buffer, isBinary: boolean) => {
    if (!isBinary || data.length === 0) return;
    const ch = data[0];
    if (ch === channel.stdin) stdin?.push(data.subarray(1));
    else if (ch === channel.close && data[1] === channel.stdin) stdin?.end();
    // Channel 4 (terminal resize) is accepted and ignored: the twin has no terminals.
  });
  ws.on('close', () => {
    stdin?.end();
    abort.abort();
  });
  // The kubelet writes an empty message to the lowest output channel once the streams are ready.
  const first = params.stdout ? channel.stdout : params.stderr ? channel.stderr : channel.error;
  ws.send(Buffer.of(first));
  const request: ExecRequest = {
    pod: params.pod,
    container: params.container,
    command: params.command,
    stdin,
    tty: params.tty,
    signal: abort.signal,
  };
  let outcome: ExecOutcome;
  let result: ExecResult | undefined;
  const argv = params.command.join(' ');
  try {
    if (refusal !== undefined) throw new RefusedError(refusal);
    // A provider that throws synchronously fails like one that rejects.
    const work = Promise.resolve().then(() => provider(request));
    result = await settle(work, timeoutMs, abort);
    outcome = { kind: 'exit', exitCode: result.exitCode };
  } catch (error) {
    if (error instanceof RefusedError) outcome = { kind: 'error', message: error.message };
    else {
      const reason = error instanceof Error ? error.message : String(error);
      outcome = { kind: 'error', message: `error executing command [${argv}]: ${reason}` };
    }
  }
  if (ws.readyState !== ws.OPEN) return;
  if (result && params.stdout)
    for (const f of frames(channel.stdout, bytes(result.stdout))) ws.send(f);
  if (result && (params.stderr || params.tty)) {
    // A TTY has one output stream: stderr is folded into stdout, as a terminal would show it.
    const ch = params.tty ? channel.stdout : channel.stderr;
    for (const f of frames(ch, bytes(result.stderr))) ws.send(f);
  }
  const status = statusFrame(protocol, outcome, params.command);
  if (status) ws.send(status);
  ws.close(1000);
}
