/**
 * Runs probe sets on a node through the run's probe shell (one probe pod per node), and turns
 * each command's output into a read; a command the shell could not run is a failed read with the
 * shell's error (unknown, never a pass).
 */
import { asAppError } from '../../errors.js';
import {
  nodeProbes,
  probePlan,
  readNodeProbe,
  targetProbes,
  withRead,
  type NodeProbeId,
  type ProbeReads,
  type ProbeValue,
} from '../../probes/index.js';
import { failedRead, type ProbeRead } from '../../probes/read.js';
import type { ProbeContext } from '../../probes/types.js';
import type { CurlOutcome } from '../../core/parse/curl.js';
import type { ReachabilityRead, ReachabilityTarget } from '../../verify/types.js';
import type { StepContext } from '../step-context.js';

const COMMAND_TIMEOUT_MS = 15_000;

function shellFailure<T>(
  probe: { id: string },
  argv: readonly string[],
  error: unknown,
  at: string,
): ProbeRead<T> {
  const e = asAppError(error);
  return failedRead<T>(
    probe,
    argv,
    e.code === 'NODE_PROBE_TIMEOUT' ? 'timed-out' : 'shell-failed',
    e.message,
    at,
  );
}

export async function readOnNode(
  ctx: StepContext,
  node: string,
  ids: readonly NodeProbeId[],
  probeCtx: ProbeContext,
  into: ProbeReads = {},
): Promise<ProbeReads> {
  // One probe pod per node; its commands run side by side (each is a short read).
  const filers = await Promise.all(
    probePlan(ids, probeCtx).map(({ id, argv }) => readOne(ctx, node, id, argv)),
  );
  return filers.reduce((reads, file) => file(reads), into);
}

/** Runs one probe and resolves to what files its read (typed by the probe's id). */
async function readOne<K extends NodeProbeId>(
  ctx: StepContext,
  node: string,
  id: K,
  argv: readonly string[],
): Promise<(reads: ProbeReads) => ProbeReads> {
  const at = ctx.clock.now().toISOString();
  try {
    const result = await ctx.shell().run(node, argv, { timeoutMs: COMMAND_TIMEOUT_MS });
    const read = readNodeProbe(id, argv, result, at);
    return (reads) => withRead(reads, id, read);
  } catch (error) {
    const read = shellFailure<ProbeValue<K>>(nodeProbes[id], argv, error, at);
    return (reads) => withRead(reads, id, read);
  }
}

/** curl from `from` to a ClusterIP or NodePort target. */
export async function curlFrom(
  ctx: StepContext,
  from: string,
  target: ReachabilityTarget,
  probeCtx: ProbeContext,
): Promise<ReachabilityRead> {
  const probe =
    target.kind === 'clusterip' ? targetProbes['curl-clusterip'] : targetProbes['curl-nodeport'];
  const argv = probe.argv({ ...probeCtx, target: { host: target.host, port: target.port } });
  const at = ctx.clock.now().toISOString();
  try {
    const result = await ctx.shell().run(from, argv, { timeoutMs: COMMAND_TIMEOUT_MS });
    const read: ProbeRead<CurlOutcome> = {
      probe: probe.id,
      argv,
      result,
      value: probe.parse(result),
      at,
    };
    return { target, from, read };
  } catch (error) {
    return { target, from, read: shellFailure<CurlOutcome>(probe, argv, error, at) };
  }
}
