/**
 * One probe's read on one node, as verifications consume it: the argv that ran, what it printed,
 * the parsed value or the ProbeError, and when. Reads through the API (kube-proxy's log) use the
 * same shape with an empty argv.
 */
import {
  isProbeError,
  probeError,
  type Probe,
  type ProbeContext,
  type ProbeError,
  type ProbeErrorCode,
  type ProbeResult,
} from './types.js';

export interface ProbeRead<T> {
  /** The probe id (`nft-table`), or the API read's name (`kube-proxy-log`). */
  probe: string;
  argv: readonly string[];
  /** Absent when the command never ran (no probe pod, the shell timed out). */
  result?: ProbeResult;
  value: T | ProbeError;
  /** ISO time of the read. */
  at: string;
}

/** The read of a command that ran: parses what it printed. */
export function readProbe<T, C extends ProbeContext>(
  probe: Probe<T, C>,
  argv: readonly string[],
  result: ProbeResult,
  at: string,
): ProbeRead<T> {
  return { probe: probe.id, argv: [...argv], result, value: probe.parse(result), at };
}

/** The read of a command the shell could not run (the engine maps its error to a code). */
export function failedRead<T = never>(
  probe: { id: string },
  argv: readonly string[],
  code: ProbeErrorCode,
  message: string,
  at: string,
): ProbeRead<T> {
  return { probe: probe.id, argv: [...argv], value: probeError(code, message), at };
}

/** The parsed value, or undefined when the read failed. */
export function valueOf<T>(read: ProbeRead<T> | undefined): T | undefined {
  return read === undefined || isProbeError(read.value) ? undefined : read.value;
}
