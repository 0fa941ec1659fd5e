/**
 * A node probe is data: the argv to run on the node's host (through a probe pod) and a pure
 * parser of what it printed. Running is the engine's job; a probe that could not run, timed out
 * or printed something unexpected yields a ProbeError, which verifications treat as unknown
 * (DESIGN: unknown never passes).
 */

/** What the NodeShell returns for one command (ports/node-shell.ts CommandResult). */
export interface ProbeResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export const probeErrorCodes = [
  /** The tool is not in the probe image (exit 127/126). */
  'not-installed',
  /** The command or the shell gave up before the tool answered. */
  'timed-out',
  /** The shell could not run the command at all (no probe pod, exec failed). */
  'shell-failed',
  /** The tool ran and failed. */
  'failed',
  /** The tool answered, but not in the format it prints. */
  'unparsable',
] as const;
export type ProbeErrorCode = (typeof probeErrorCodes)[number];

export interface ProbeError {
  readonly kind: 'probe-error';
  readonly code: ProbeErrorCode;
  readonly message: string;
}

export function probeError(code: ProbeErrorCode, message: string): ProbeError {
  return { kind: 'probe-error', code, message };
}

export function isProbeError(value: unknown): value is ProbeError {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { kind?: unknown }).kind === 'probe-error'
  );
}

export interface HostPort {
  host: string;
  port: number;
}

/** What argv needs to know about the node. */
export interface ProbeContext {
  /** The node's primary address (its InternalIP), for endpoints bound to it. */
  nodeIP?: string;
  /** Where kube-proxy's metrics server answers (default 127.0.0.1:10249). */
  metrics: HostPort;
  /** Where kube-proxy's health server answers (default 127.0.0.1:10256). */
  healthz: HostPort;
}

/** A probe aimed at one address: a ClusterIP:port or a node address:nodePort. */
export interface TargetContext extends ProbeContext {
  target: HostPort;
}

export interface Probe<T, C extends ProbeContext = ProbeContext> {
  readonly id: string;
  /** One line for people: what the probe reads and why. */
  readonly describe: string;
  /** Whether the probe makes sense here (e.g. the node-IP variant needs a node IP); default yes. */
  readonly applies?: (ctx: C) => boolean;
  /** The command, as an argv array (never a shell string). */
  argv(ctx: C): string[];
  parse(result: ProbeResult): T | ProbeError;
}
