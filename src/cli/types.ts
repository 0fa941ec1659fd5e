/** A terminal subcommand: one file each, listed in cli/index.ts. */
import type { ParseArgsConfig } from 'node:util';

/** A subcommand's flags, as `node:util` parseArgs takes them (shell completion lists them). */
export type Options = NonNullable<ParseArgsConfig['options']>;

export interface CliIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: Record<string, string | undefined>;
  /** For confirmations; absent means process.stdin. */
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
}

export interface Subcommand {
  name: string;
  summary: string;
  /** Full help text printed for `--help`. */
  help: string;
  /** Its flags: what it parses, and what shell completion offers. */
  options: Options;
  /** Words its first argument may be, for shell completion (`completion`'s shells). */
  words?: readonly string[];
  /** Command lines its help shows under Examples; each one parses (a test runs them). */
  examples: readonly string[];
  /**
   * Parses argv the way run does and stops there: undefined when it would run, else the exit
   * code a usage problem (or `--help`) gives.
   */
  check(argv: string[], io: CliIo): number | undefined;
  /** Resolves to the process exit code. Long-running commands resolve when they have stopped. */
  run(argv: string[], io: CliIo): Promise<number>;
}

/**
 * Exit codes shared by every subcommand. Usage and configuration errors use the sysexits
 * values (64, 78) so they never collide with pre-flight's 2 (blockers) and 3 (warnings) or a
 * node run's 2 (refused), 4 (rolled back) and 5 (needs attention).
 */
export const EXIT = {
  ok: 0,
  failure: 1,
  blockers: 2,
  refused: 2,
  warnings: 3,
  rolledBack: 4,
  needsAttention: 5,
  usage: 64,
  config: 78,
} as const;
