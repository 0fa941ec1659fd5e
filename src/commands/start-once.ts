/**
 * Starting a run from a slash command, once per identical request (core/run-key.ts): a request
 * whose twin's run has not ended starts nothing and is answered with that run and a link to its
 * thread. The link needs the run's status card, which its first step posts a moment later, so
 * the answer waits for the card (bounded); however many requests wait on one run, one read of
 * the store at a time looks for it.
 */
import type { ClusterConfig } from '../config.js';
import { runKey } from '../core/run-key.js';
import type { RunState } from '../core/run-state.js';
import type { RunRequest, StartOnce } from '../engine/runs.js';
import type { RunStore } from '../ports/run-store.js';
import { alreadyRunningReply } from '../views/already-running.js';
import type { VerbContext } from './types.js';

/** How long an answer waits for the running run's status card before it goes without the link. */
export const CARD_WAIT_MS = 10_000;
const POLL_MS = 250;

const watches = new WeakMap<RunStore, Map<string, Promise<RunState | undefined>>>();

function hasCard(state: RunState | undefined): boolean {
  return typeof state?.facts['cardTs'] === 'string' || state?.phase === 'done';
}

/** The run once its card is posted (or it ended), else as last read at the deadline. */
function withCard(store: RunStore, runId: string, waitMs: number): Promise<RunState | undefined> {
  let byRun = watches.get(store);
  if (byRun === undefined) {
    byRun = new Map();
    watches.set(store, byRun);
  }
  const running = byRun.get(runId);
  if (running !== undefined) return running;
  const deadline = Date.now() + waitMs;
  const watch = (async () => {
    for (;;) {
      const state = await store.get(runId).catch(() => undefined);
      if (hasCard(state) || Date.now() >= deadline) return state;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  })();
  byRun.set(runId, watch);
  void watch.finally(() => byRun.delete(runId));
  return watch;
}

export async function startOnce(
  ctx: VerbContext,
  cluster: ClusterConfig,
  request: RunRequest,
): Promise<StartOnce> {
  const key = runKey({
    kind: request.kind,
    cluster,
    ...(request.node === undefined ? {} : { node: request.node }),
    options: request.options,
    ...(request.facts === undefined ? {} : { facts: request.facts }),
  });
  const result = await ctx.services.runs.startOnce(request, key);
  if (result.started) return result;
  // Debug: a burst of these is routine, and the request line already records each one.
  ctx.logger.debug(
    { runId: result.runId, cluster: cluster.name, node: request.node, kind: request.kind },
    `${request.kind} already running: not started again`,
  );
  const state = await withCard(ctx.services.runStore, result.runId, CARD_WAIT_MS);
  const channel = state?.options.channel;
  const ts = state?.facts['cardTs'];
  const link =
    channel !== undefined && typeof ts === 'string'
      ? ctx.services.messageLink?.(channel, ts)
      : undefined;
  await ctx.respond(
    alreadyRunningReply({
      kind: request.kind,
      cluster: cluster.name,
      ...(request.node === undefined ? {} : { node: request.node }),
      runId: result.runId,
      ...(state === undefined ? {} : { state }),
      ...(link === undefined ? {} : { link }),
    }),
  );
  return result;
}
