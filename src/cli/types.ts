/** A terminal subcommand: one file each, listed in cli/index.ts. */

export interface CliIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: Record<string, string | undefined>;
}

export interface Subcommand {
  name: string;
  summary: string;
  /** Full help text printed for `--help`. */
  help: string;
  /** Resolves to the process exit code. Long-running commands resolve when they have stopped. */
  run(argv: string[], io: CliIo): Promise<number>;
}

/** Exit codes shared by every subcommand. */
export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;
