/**
 * Waits on a node's kube-proxy pods, each with a deadline (clusters file: swapDeadlineSeconds,
 * default 120): the old pod gone (Terminating counts as there: it still runs), the new one
 * Ready, or, on the way back, the original Ready again. A missed deadline says what the node
 * shows, so the person (or the automatic rollback's reason) knows what got stuck.
 */
import { KUBE_SYSTEM } from '../../core/cluster-overview.js';
import { kubeProxiesOn, settled, type Settle } from '../../core/node-migration.js';
import type { Evidence } from '../../core/run-state.js';
import type { StepContext, StepExecutor, StepOutcome } from '../step-context.js';
import { nodeTarget } from './node-target.js';

const POLL_MS = 500;

const waitingFor: Record<Settle, string> = {
  'kube-proxy-gone': 'the old kube-proxy pod to be gone',
  'canary-ready': 'the canary kube-proxy pod to be Ready',
  'original-ready': 'the original kube-proxy pod to be Ready',
};

/** Polls the node's pods until `settle` holds; a deadline failure names what the node shows. */
export async function waitForNode(ctx: StepContext, settle: Settle): Promise<StepOutcome> {
  const target = nodeTarget(ctx);
  const deadlineMs = ctx.clusterConfig.swapDeadlineSeconds * 1000;
  // From the step's first start, kept across its retries: a read that failed mid-wait (an API
  // storm) retries the step, and must not give the node a fresh deadline without kube-proxy.
  const first = ctx
    .state()
    .steps.find((s) => s.id === ctx.step.id && s.track === ctx.state().track)?.startedAt;
  const started = Math.min(Date.now(), first === undefined ? Date.now() : Date.parse(first));
  while (!ctx.signal.aborted) {
    const seen = kubeProxiesOn(await ctx.cluster.listPodsOnNode(target.node), target);
    const verdict = settled(settle, seen);
    if (verdict.done) {
      const took = `${Math.round((Date.now() - started) / 1000)} s`;
      const pod =
        settle === 'canary-ready'
          ? seen.canary[0]
          : settle === 'original-ready'
            ? seen.original[0]
            : undefined;
      if (pod === undefined) return { ok: true, note: took };
      // Kept for the verifications: which pod (and so whose log) now serves the node.
      const running = {
        name: pod.metadata.name,
        uid: pod.metadata.uid,
        startedAt: pod.status?.containerStatuses?.[0]?.state?.running?.startedAt,
      };
      return { ok: true, note: took, facts: { kubeProxyPod: running } };
    }
    if (Date.now() - started > deadlineMs) {
      return {
        ok: false,
        ...(settle === 'kube-proxy-gone' ? {} : { evidence: await whyNotReady(ctx, settle, seen) }),
        failure: {
          kind: 'deadline',
          message: `${target.node}: waited ${ctx.clusterConfig.swapDeadlineSeconds} s for ${waitingFor[settle]}; the node shows ${verdict.showing}`,
          retryable: false,
        },
      };
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return {
    ok: false,
    failure: { kind: 'error', message: 'the process is stopping', retryable: true },
  };
}

/** The pod that did not become Ready: its state and the end of its log, as evidence. */
async function whyNotReady(
  ctx: StepContext,
  settle: Settle,
  seen: ReturnType<typeof kubeProxiesOn>,
): Promise<Evidence[]> {
  const pod = (settle === 'canary-ready' ? seen.canary : seen.original)[0];
  const at = ctx.clock.now().toISOString();
  if (pod === undefined) return [];
  const state = pod.status?.containerStatuses?.[0]?.state;
  const text = await ctx.cluster
    .podLog(KUBE_SYSTEM, pod.metadata.name, 'kube-proxy', LOG_TAIL)
    .catch((error: unknown) => `(log not readable: ${(error as Error).message})`);
  return [
    {
      probe: 'kube-proxy-not-ready',
      step: ctx.step.id,
      node: nodeTarget(ctx).node,
      argv: [],
      output: text.trim().split('\n').slice(-LOG_TAIL).join('\n'),
      ok: false,
      verdict: `${pod.metadata.name} is ${state?.waiting?.reason ?? (state?.terminated === undefined ? (pod.status?.phase ?? 'Pending') : `terminated (${state.terminated.reason ?? 'exit'})`)}, not Ready; its log ends with what kube-proxy said`,
      at,
    },
  ];
}

const LOG_TAIL = 20;

export const oldPodGone: StepExecutor = (ctx) => waitForNode(ctx, 'kube-proxy-gone');
export const canaryReady: StepExecutor = (ctx) => waitForNode(ctx, 'canary-ready');
