/**
 * NodeShell: run a command on a node's host and read what it printed. On real clusters this
 * execs into a short-lived probe pod pinned to the node; commands are argv arrays, never shell
 * strings, and every run has a deadline.
 */

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
  /** Removes whatever the shell created (probe pods); safe to call more than once. */
  close(): Promise<void>;
}
