// What every simulated command receives and returns: the node it runs on (through the cluster
// view), the simulated time, stdin from a pipe, and exit code plus stdout/stderr.

import type { Dataplane } from '../dataplane/dataplane.js';
import type { HostSysctls } from '../host/host.js';
import type { ClusterView, NodeState } from '../view.js';

/** What a command changed on its node (`nft delete table`, `ipvsadm -C`, `sysctl -w`, …). */
export interface NodeChange {
  readonly dataplane?: Dataplane;
  readonly sysctls?: HostSysctls;
}

export interface CommandContext {
  readonly view: ClusterView;
  readonly nodeName: string;
  readonly now: number;
  /** Pods without hostNetwork have their own loopback: 127.0.0.1 reaches nothing of the host's. */
  readonly hostNetwork: boolean;
  readonly apply: (change: NodeChange) => void;
}

export interface CommandResult {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

export type CommandHandler = (
  ctx: CommandContext,
  args: readonly string[],
  stdin: string,
) => CommandResult;

export function ok(stdout: string, stderr = ''): CommandResult {
  return { exitCode: 0, stdout, stderr };
}

export function fail(exitCode: number, stderr: string, stdout = ''): CommandResult {
  return { exitCode, stdout, stderr };
}

export function nodeState(ctx: CommandContext): NodeState {
  const state = ctx.view.node(ctx.nodeName);
  if (!state) throw new Error(`twin: no node ${ctx.nodeName}`);
  return state;
}
