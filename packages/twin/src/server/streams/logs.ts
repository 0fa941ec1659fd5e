// pods/{name}/log: the provider contract, the apiserver's option checks and container choice,
// the kubelet's errors, and follow mode, which streams until the pod ends or the client leaves.

import type { ServerResponse } from 'node:http';
import { badRequest, invalid } from '../../apimachinery/errors.js';
import { baseHeaders, queryFlag, queryInt } from '../http-util.js';
import type { ResourceTarget } from '../routes.js';
import type { ObjectStore } from '../../store/store.js';
import type { KubeObject } from '../../apimachinery/types.js';
import type { LogLine } from './log-format.js';
import { ByteBudget, formatLine, selectLines } from './log-format.js';
import { findPod, podNodeName, podPhase, resolveContainer } from './pod-target.js';
import type { KubeletView } from './kubelet.js';
import { UnknownStatusError, dialError, kubeletHost } from './kubelet.js';
import type { LogQuery } from './log-status.js';
import { containerLogError, logURL } from './log-status.js';

export type { LogLine } from './log-format.js';

export interface LogSource {
  lines(): LogLine[];
  /** The previous terminated instance's log (whether there is one, the pod's status says). */
  previousLines?(): LogLine[] | undefined;
  /** Calls `fn` for every line appended from now on; returns the unsubscribe function. */
  subscribe(fn: (line: LogLine) => void): () => void;
}

export type LogsProvider = (pod: KubeObject, container: string) => LogSource;

export const defaultLogsProvider: LogsProvider = () => ({
  lines: () => [],
  subscribe: () => () => undefined,
});

export interface LogContext {
  store: ObjectStore;
  /** The nodes' kubelets; without it every kubelet answers. */
  kubelet?: KubeletView | undefined;
  logs: LogsProvider;
  /** Registers an open follow so closing the twin ends it; returns the unregister function. */
  track(stop: () => void): () => void;
}

function parseQuery(query: URLSearchParams, podName: string, now: number): LogQuery {
  const fail = (field: string, message: string): never => {
    throw invalid('PodLogOptions', podName, field, message);
  };
  const tailLines = queryInt(query, 'tailLines');
  const limitBytes = queryInt(query, 'limitBytes');
  const sinceSeconds = queryInt(query, 'sinceSeconds');
  const sinceTime = query.get('sinceTime');
  if (tailLines !== undefined && tailLines < 0)
    fail('tailLines', `Invalid value: ${tailLines}: must be greater than or equal to 0`);
  if (limitBytes !== undefined && limitBytes < 1)
    fail('limitBytes', `Invalid value: ${limitBytes}: must be greater than 0`);
  if (sinceSeconds !== undefined && sinceSeconds < 1)
    fail('sinceSeconds', `Invalid value: ${sinceSeconds}: must be greater than 0`);
  if (sinceSeconds !== undefined && sinceTime)
    fail('', 'Forbidden: at most one of `sinceTime` or `sinceSeconds` may be specified');
  let sinceMs = sinceSeconds === undefined ? undefined : now - sinceSeconds * 1000;
  if (sinceTime) {
    sinceMs = Date.parse(sinceTime);
    if (Number.isNaN(sinceMs)) throw badRequest(`invalid sinceTime "${sinceTime}"`);
  }
  return {
    container: query.get('container'),
    follow: queryFlag(query, 'follow'),
    previous: queryFlag(query, 'previous'),
    timestamps: queryFlag(query, 'timestamps'),
    tailLines,
    limitBytes,
    sinceMs,
    sinceSeconds,
  };
}

const terminal = (pod: KubeObject): boolean => ['Succeeded', 'Failed'].includes(podPhase(pod));

export function handleLogs(
  ctx: LogContext,
  res: ServerResponse,
  query: URLSearchParams,
  target: ResourceTarget,
): void {
  const podName = target.name ?? '';
  const q = parseQuery(query, podName, ctx.store.clock.now());
  const pod = findPod(ctx.store, target.namespace, podName);
  const container = resolveContainer(pod, q.container);
  const headers = { ...baseHeaders, 'Content-Type': 'text/plain' };
  // An unscheduled pod has no kubelet to ask: the apiserver answers an empty log.
  if (podNodeName(pod) === '') {
    res.writeHead(200, { ...headers, 'Content-Length': 0 });
    res.end();
    return;
  }
  const node = podNodeName(pod);
  if (ctx.kubelet && !ctx.kubelet.up(node)) {
    // LocationStreamer's client.Do fails; the apiserver answers it as a plain 500.
    const host = kubeletHost(ctx.store, node);
    throw new UnknownStatusError(`Get "${logURL(host, pod, container, q)}": ${dialError(host)}`);
  }
  const refused = containerLogError(pod, container, q.previous);
  if (refused !== undefined) throw badRequest(refused);
  const source = ctx.logs(pod, container);
  const lines: LogLine[] = q.previous ? (source.previousLines?.() ?? []) : source.lines();
  const budget = new ByteBudget(q.limitBytes);
  const initial = selectLines(lines, { ...q, timestamps: q.timestamps })
    .map((line) => budget.take(formatLine(line, q.timestamps)))
    .filter((b) => b.length > 0);
  if (!q.follow || q.previous || terminal(pod) || budget.exhausted) {
    const body = Buffer.concat(initial);
    res.writeHead(200, { ...headers, 'Content-Length': body.length });
    res.end(body);
    return;
  }
  res.writeHead(200, { ...headers, 'Transfer-Encoding': 'chunked' });
  // client-node's Log resolves on the headers; send them even when there is nothing to log yet.
  res.flushHeaders();
  for (const chunk of initial) res.write(chunk);
  followLog(ctx, res, pod, source, { budget, timestamps: q.timestamps });
}

function followLog(
  ctx: LogContext,
  res: ServerResponse,
  pod: KubeObject,
  source: LogSource,
  out: { budget: ByteBudget; timestamps: boolean },
): void {
  const { namespace, name, uid } = pod.metadata;
  let done = false;
  const cleanups: (() => void)[] = [];
  const stop = (): void => {
    if (done) return;
    done = true;
    for (const cleanup of cleanups) cleanup();
    res.end();
  };
  cleanups.push(
    source.subscribe((line) => {
      if (done) return;
      const bytes = out.budget.take(formatLine(line, out.timestamps));
      if (bytes.length > 0) res.write(bytes);
      if (out.budget.exhausted) stop();
    }),
  );
  cleanups.push(
    ctx.store.subscribe((event) => {
      const o = event.object;
      if (event.resource.plural !== 'pods' || o.metadata.uid !== uid) return;
      if (o.metadata.namespace !== namespace || o.metadata.name !== name) return;
      // The container is gone once the pod is deleted or has finished: the kubelet ends the stream.
      if (event.type === 'DELETED' || terminal(o)) stop();
    }),
  );
  cleanups.push(ctx.track(stop));
  res.on('close', stop);
}
