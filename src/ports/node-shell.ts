/**
 * NodeShell: run a command on a node's host and read what it printed. On real clusters this
 * execs into a short-lived probe pod pinned to the node; commands are argv arrays, never shell
 * strings, and every run has a deadline.
 */

/**
 * Where a NodeShell's commands find the host's root filesystem. The shell's own tools are its
 * image's (the probe's nft is not the host's): read host binaries as `chroot HOST_ROOT <cmd>`.
 */
export const HOST_ROOT = '/host';

export interface CommandResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  /** The command is abandoned (and reported as timed out) after this long. */
  timeoutMs: number;
}

export interface NodeShell {
  run(node: string, argv: readonly string[], options: RunOptions): Promise<CommandResult>;
  /** Starts getting ready to run on `node` (a probe pod starting) without waiting for it. */
  warm?(node: string): void;
  /**
   * Many nodes are about to be probed: start them all at once (a DaemonSet) without waiting.
   * `allNodes`: they are every node of the cluster.
   */
  prepare?(nodes: readonly string[], options?: { allNodes?: boolean }): void;
  /** Removes whatever the shell created (probe pods); safe to call more than once. */
  close(): Promise<void>;
}
