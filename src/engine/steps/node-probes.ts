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
  let reads = into;
  for (const { id, argv } of probePlan(ids, probeCtx)) {
    const at = ctx.clock.now().toISOString();
    try {
      const result = await ctx.shell().run(node, argv, { timeoutMs: COMMAND_TIMEOUT_MS });
      reads = withRead(reads, id, readNodeProbe(id, argv, result, at));
    } catch (error) {
      reads = withRead(reads, id, shellFailure(nodeProbes[id], argv, error, at));
    }
  }
  return reads;
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
