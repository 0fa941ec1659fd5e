/**
 * Verification with evidence, both ways. kube-proxy programs its rules only after its first
 * sync, some time after its pod is Ready, so a verification polls until every check passes or
 * its deadline runs out; the last round's evidence is kept either way. Unknown never passes:
 * a read that failed fails its verification. Also the rollback reference, captured before the
 * first write: the IPVS rules and iptables as they were, and the IPVS sync-time baseline.
 */
import { KUBE_SYSTEM } from '../../core/cluster-overview.js';
import type { Metrics } from '../../core/parse/prometheus.js';
import type { Evidence } from '../../core/run-state.js';
import {
  readNodeProbe,
  referenceProbes,
  nftablesProbes,
  ipvsProbes,
  type ProbeReads,
} from '../../probes/index.js';
import { probeContext } from '../../probes/context.js';
import { valueOf, type ProbeRead } from '../../probes/read.js';
import type { ProbeContext, ProbeResult } from '../../probes/types.js';
import { evidence } from '../../verify/evidence.js';
import {
  allPassed,
  ipvsVerifications,
  nftablesVerifications,
  runVerifications,
} from '../../verify/index.js';
import { clusterIPTarget, nodePortAddresses, nodePortTargets } from '../../verify/targets.js';
import type { LogRead, Reachability, ReachabilityTarget } from '../../verify/types.js';
import { internalIP } from '../../core/nodes.js';
import { kubeProxiesOn } from '../../core/node-migration.js';
import type { StepContext, StepExecutor, StepOutcome } from '../step-context.js';
import { curlFrom, readOnNode } from './node-probes.js';
import { nodeTarget } from './node-target.js';
import { verifyTargets, type VerifyTargets } from './verify-inputs.js';

const ROUND_PAUSE_MS = 1_000;
/** Two metrics reads at least this far apart show whether the sync-failure counter moves. */
const METRICS_GAP_MS = 1_000;
/** How often to look for kube-proxy's first sync before a full round. */
const SYNC_POLL_MS = 250;
const LOG_LINES = 5_000;

type Mode = 'nftables' | 'ipvs';

function durationSeconds(value: unknown, fallback: number): number {
  if (typeof value !== 'string') return fallback;
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(value);
  if (m === null) return fallback;
  const n = Number(m[1]);
  return m[2] === 'ms' ? n / 1000 : m[2] === 'm' ? n * 60 : m[2] === 'h' ? n * 3600 : n;
}

function contextFor(targets: VerifyTargets): ProbeContext {
  const ip = internalIP(targets.node);
  return probeContext({
    ...(ip === undefined ? {} : { nodeIP: ip }),
    metricsBindAddress: targets.config?.metricsBindAddress,
    healthzBindAddress: targets.config?.healthzBindAddress,
  });
}

/** The log of the kube-proxy pod now serving the node (the canary's or the original's). */
async function logOf(ctx: StepContext, mode: Mode, container: string): Promise<LogRead> {
  const at = ctx.clock.now().toISOString();
  const failed = (message: string): LogRead => ({
    probe: 'kube-proxy-log',
    argv: [],
    value: { kind: 'probe-error', code: 'failed', message },
    at,
  });
  const target = nodeTarget(ctx);
  const seen = kubeProxiesOn(await ctx.cluster.listPodsOnNode(target.node), target);
  const pod = (mode === 'nftables' ? seen.canary : seen.original)[0];
  if (pod === undefined)
    return failed(
      `no ${mode === 'nftables' ? 'canary' : 'original'} kube-proxy pod on ${target.node}`,
    );
  try {
    const text = await ctx.cluster.podLog(KUBE_SYSTEM, pod.metadata.name, container, LOG_LINES);
    return {
      probe: 'kube-proxy-log',
      argv: [],
      value: text.split('\n').filter((l) => l !== ''),
      at,
    };
  } catch (error) {
    return failed((error as Error).message);
  }
}

async function reachability(
  ctx: StepContext,
  targets: VerifyTargets,
  mode: Mode,
  reads: ProbeReads,
  probeCtx: ProbeContext,
): Promise<Reachability> {
  const { node } = nodeTarget(ctx);
  const clusterIP: ReachabilityTarget[] =
    targets.clusterIP === undefined ? [] : [clusterIPTarget(targets.clusterIP)];
  const links = valueOf(reads['host-addresses']);
  const nodePort =
    targets.nodePort === undefined
      ? []
      : nodePortTargets(
          nodePortAddresses({
            node: targets.node,
            links,
            setting: targets.config?.nodePortAddresses ?? undefined,
            mode,
          }),
          targets.nodePort,
        );
  const calls = [
    ...clusterIP.map((t) => curlFrom(ctx, node, t, probeCtx)),
    ...nodePort.map((t) => curlFrom(ctx, node, t, probeCtx)),
    ...(targets.peer === undefined
      ? []
      : nodePort.map((t) => curlFrom(ctx, targets.peer?.node ?? node, t, probeCtx))),
  ];
  return {
    clusterIP,
    nodePort,
    ...(targets.peer === undefined ? {} : { peer: targets.peer }),
    reads: await Promise.all(calls),
  };
}

/** The IPVS kube-proxy's metrics read before the swap, parsed again from its saved output. */
function baselineOf(ctx: StepContext): ProbeRead<Metrics> | undefined {
  const saved = ctx.state().facts['baselineMetrics'] as
    { argv: string[]; result: ProbeResult; at: string } | undefined;
  return saved === undefined
    ? undefined
    : readNodeProbe('metrics', saved.argv, saved.result, saved.at);
}

async function round(ctx: StepContext, mode: Mode, targets: VerifyTargets): Promise<Evidence[]> {
  const { node } = nodeTarget(ctx);
  const probeCtx = contextFor(targets);
  const scope = { node, step: ctx.step.id, now: ctx.clock.now().toISOString() };
  const ids = [...(mode === 'nftables' ? nftablesProbes : ipvsProbes), 'host-addresses' as const];
  const firstAt = Date.now();
  // The node's reads, its log and the ClusterIP/NodePort calls, all at once.
  const [reads, log] = await Promise.all([
    readOnNode(ctx, node, ids, probeCtx),
    logOf(ctx, mode, targets.container),
  ]);
  const common = {
    ...scope,
    reads,
    expected: targets.expected,
    log,
    reachability: await reachability(ctx, targets, mode, reads, probeCtx),
  };
  if (mode === 'ipvs') return runVerifications(ipvsVerifications, common);
  const wait = METRICS_GAP_MS - (Date.now() - firstAt);
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  const second = (await readOnNode(ctx, node, ['metrics'], probeCtx)).metrics;
  const baseline = baselineOf(ctx);
  const nftables = targets.config?.nftables ?? {};
  return runVerifications(nftablesVerifications, {
    ...common,
    metrics: {
      ...(baseline === undefined ? {} : { baseline }),
      ...(reads.metrics === undefined ? {} : { first: reads.metrics }),
      ...(second === undefined ? {} : { second }),
    },
    syncPeriodSeconds: durationSeconds(nftables['syncPeriod'], 30),
  });
}

/**
 * Whether kube-proxy has programmed the node yet (its first sync comes some time after Ready):
 * its nft table exists (nftables), or IPVS has virtual servers again (IPVS). A cheap read polled
 * before the full round, so the round is not spent on a node that is still empty.
 */
async function firstSynced(ctx: StepContext, mode: Mode, probeCtx: ProbeContext): Promise<boolean> {
  const { node } = nodeTarget(ctx);
  if (mode === 'nftables') {
    const table = valueOf((await readOnNode(ctx, node, ['nft-table'], probeCtx))['nft-table']);
    return table?.present === true;
  }
  const ipvs = valueOf((await readOnNode(ctx, node, ['ipvsadm-list'], probeCtx))['ipvsadm-list']);
  return (ipvs?.virtualServers.length ?? 0) > 0;
}

async function verifyUntilPassed(ctx: StepContext, mode: Mode): Promise<StepOutcome> {
  const started = Date.now();
  const deadline = started + ctx.clusterConfig.verifyDeadlineSeconds * 1000;
  const targets = await verifyTargets(ctx, mode === 'nftables' ? 'canary' : 'original');
  const probeCtx = contextFor(targets);
  while (Date.now() < deadline && !(await firstSynced(ctx, mode, probeCtx))) {
    await new Promise((resolve) => setTimeout(resolve, SYNC_POLL_MS));
  }
  // kube-proxy's own time to its first sync, kept apart from the verification's (bench/cutover.ts).
  const firstSyncMs = Date.now() - started;
  let found: Evidence[];
  for (;;) {
    found = await round(ctx, mode, targets);
    if (allPassed(found)) {
      return {
        ok: true,
        note: `${found.length} checks passed`,
        evidence: found,
        facts: { [`${ctx.step.id}FirstSyncMs`]: firstSyncMs },
      };
    }
    if (ctx.signal.aborted)
      return {
        ok: false,
        failure: { kind: 'error', message: 'the process is stopping', retryable: true },
      };
    if (Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, ROUND_PAUSE_MS));
  }
  const failed = found.filter((e) => !e.ok);
  return {
    ok: false,
    evidence: found,
    failure: {
      kind: 'verification',
      message: `${mode} verification failed on ${nodeTarget(ctx).node}: ${failed.map((e) => `${e.probe}: ${e.verdict}`).join('; ')}`,
      retryable: false,
    },
  };
}

export const verifyNftables: StepExecutor = (ctx) => verifyUntilPassed(ctx, 'nftables');
export const verifyIpvs: StepExecutor = (ctx) => verifyUntilPassed(ctx, 'ipvs');

/** Before the first write: the node as it runs now, to compare against and to restore by hand. */
export const captureReference: StepExecutor = async (ctx) => {
  const { node } = nodeTarget(ctx);
  const targets = await verifyTargets(ctx, 'original');
  const reads = await readOnNode(ctx, node, referenceProbes, contextFor(targets));
  const scope = { node, step: ctx.step.id, now: ctx.clock.now().toISOString() };
  const found: Evidence[] = referenceProbes.map((id) => {
    const read: ProbeRead<unknown> | undefined = reads[id];
    const ok = read !== undefined && valueOf(read) !== undefined;
    return evidence(scope, id, read, ok, ok ? 'captured' : 'not captured: the reference has a gap');
  });
  return {
    ok: true,
    note: `${found.filter((e) => e.ok).length}/${found.length} captured`,
    evidence: found,
    // Kept as the command's output, not the parsed value: run state is JSON, the parse has Maps.
    ...(reads.metrics?.result === undefined
      ? {}
      : {
          facts: {
            baselineMetrics: {
              argv: reads.metrics.argv,
              result: reads.metrics.result,
              at: reads.metrics.at,
            },
          },
        }),
  };
};
