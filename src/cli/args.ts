/** Argument parsing shared by subcommands: strict (unknown flags are errors) and `--help` aware. */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { EXIT, type CliIo } from './types.js';

type Options = NonNullable<ParseArgsConfig['options']>;

export type Parsed<O extends Options> = ReturnType<
  typeof parseArgs<{ options: O; args: string[]; allowPositionals: true; strict: true }>
>;

/** Parses argv; on `--help` or a bad flag prints to the right stream and returns the exit code. */
export function parseOrExit<O extends Options>(
  argv: string[],
  options: O,
  help: string,
  io: CliIo,
): { ok: true; parsed: Parsed<O> } | { ok: false; code: number } {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.stdout.write(`${help.trimEnd()}\n`);
    return { ok: false, code: EXIT.ok };
  }
  try {
    const parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
    return { ok: true, parsed };
  } catch (error) {
    io.stderr.write(`${(error as Error).message}\n\n${help.trimEnd()}\n`);
    return { ok: false, code: EXIT.usage };
  }
}

/** Prints a one-line complaint above the command's help; the usage exit code. */
export function usageError(io: CliIo, help: string, message: string): number {
  io.stderr.write(`${message}\n\n${help.trimEnd()}\n`);
  return EXIT.usage;
}

export interface CommandLine<O extends Options, F extends string> {
  values: Parsed<O>['values'];
  /** The positional arguments: `required` of them, then up to `optional` more. */
  args: (string | undefined)[];
  /** `--format`, checked against the command's formats. */
  format: F;
}

/**
 * Parses argv and checks the positional arguments' count and `--format` (the command's first
 * format when absent): the shape every cluster subcommand shares.
 */
export function commandLine<O extends Options, const F extends string>(
  argv: string[],
  options: O,
  help: string,
  io: CliIo,
  shape: { required: number; optional?: number; missing: string; formats: readonly [F, ...F[]] },
): { ok: true; line: CommandLine<O, F> } | { ok: false; code: number } {
  const parsed = parseOrExit(argv, options, help, io);
  if (!parsed.ok) return parsed;
  const { values, positionals } = parsed.parsed;
  const fail = (message: string) => ({ ok: false as const, code: usageError(io, help, message) });
  if (positionals.length < shape.required) return fail(shape.missing);
  const extra = positionals.slice(shape.required + (shape.optional ?? 0));
  if (extra.length > 0) return fail(`Unexpected argument: ${extra.join(' ')}`);
  const asked = (values as { format?: unknown }).format ?? shape.formats[0];
  const format = shape.formats.find((f) => f === asked);
  if (format === undefined) return fail(`--format must be one of ${shape.formats.join(', ')}.`);
  return { ok: true, line: { values, args: positionals, format } };
}

/** --kubeconfig and --context as optional properties (absent, not undefined). */
export function clusterFlags(values: {
  kubeconfig?: string | undefined;
  context?: string | undefined;
}): {
  kubeconfig?: string;
  context?: string;
} {
  return {
    ...(values.kubeconfig === undefined ? {} : { kubeconfig: values.kubeconfig }),
    ...(values.context === undefined ? {} : { context: values.context }),
  };
}
