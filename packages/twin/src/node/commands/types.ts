// What every simulated command receives and returns: the node it runs on (through the cluster
// view), the simulated time, stdin from a pipe, and exit code plus stdout/stderr.

import type { ContainerContext } from '../container/context.js';
import { processState } from '../container/process.js';
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
  /** The container the command runs in; undefined runs it as root on the host itself. */
  readonly container?: ContainerContext | undefined;
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

/** The node as the command's process sees it (its image's nft, its network namespace). */
export function nodeState(ctx: CommandContext): NodeState {
  const state = ctx.view.node(ctx.nodeName);
  if (!state) throw new Error(`twin: no node ${ctx.nodeName}`);
  return processState(state, ctx.container);
}
