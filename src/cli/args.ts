/** Argument parsing shared by subcommands: strict (unknown flags are errors) and `--help` aware. */
import { parseArgs } from 'node:util';
import { EXIT, type CliIo, type Options } from './types.js';

/** `--format` and its kubectl-style alias `-o/--output`; commandLine reads either. */
export const formatOptions = {
  format: { type: 'string' },
  output: { type: 'string', short: 'o' },
} as const;

/** --kubeconfig and --context: with either, <cluster> may be left out (named after the context). */
export const clusterOptions = {
  kubeconfig: { type: 'string' },
  context: { type: 'string' },
} as const;

/** A help text with its Examples section (the examples are the subcommand's `examples`). */
export function withExamples(help: string, examples: readonly string[]): string {
  if (examples.length === 0) return help.trimEnd();
  return `${help.trimEnd()}\n\nExamples:\n${examples.map((e) => `  ${e}`).join('\n')}`;
}

/** A Subcommand's `check` from its parser: undefined when argv would run. */
export function checkOf<A extends unknown[]>(
  parse: (argv: string[], io: CliIo, ...rest: A) => { ok: true } | { ok: false; code: number },
  ...rest: A
): (argv: string[], io: CliIo) => number | undefined {
  return (argv, io) => {
    const parsed = parse(argv, io, ...rest);
    return parsed.ok ? undefined : parsed.code;
  };
}

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
  /**
   * The positional arguments: `required` of them, then up to `optional` more. The first is the
   * cluster, undefined when left out because --kubeconfig or --context names it.
   */
  args: (string | undefined)[];
  /** `--format` (or `-o/--output`), checked against the command's formats. */
  format: F;
}

/**
 * Parses argv and checks the positional arguments' count and `--format`/`-o` (the command's
 * first format when absent): the shape every cluster subcommand shares. The first positional is
 * the cluster; with --kubeconfig or --context it may be left out (the others then move up).
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
  const named = values as { kubeconfig?: unknown; context?: unknown };
  const clusterFromFlags = named.kubeconfig !== undefined || named.context !== undefined;
  const args: (string | undefined)[] =
    clusterFromFlags && shape.required > 0 && positionals.length < shape.required
      ? [undefined, ...positionals]
      : positionals;
  if (args.length < shape.required) return fail(shape.missing);
  const extra = args.slice(shape.required + (shape.optional ?? 0));
  if (extra.length > 0) return fail(`Unexpected argument: ${extra.join(' ')}`);
  const { format: long, output } = values as { format?: unknown; output?: unknown };
  if (long !== undefined && output !== undefined && long !== output)
    return fail('--format and -o/--output disagree: give one of them.');
  const asked = long ?? output ?? shape.formats[0];
  const format = shape.formats.find((f) => f === asked);
  if (format === undefined) return fail(`--format must be one of ${shape.formats.join(', ')}.`);
  return { ok: true, line: { values, args, format } };
}

/** Parses argv of a subcommand that takes flags only (no positional arguments). */
export function flagsOnly<O extends Options>(
  argv: string[],
  options: O,
  help: string,
  io: CliIo,
): { ok: true; values: Parsed<O>['values'] } | { ok: false; code: number } {
  const parsed = parseOrExit(argv, options, help, io);
  if (!parsed.ok) return parsed;
  const { values, positionals } = parsed.parsed;
  if (positionals.length > 0)
    return {
      ok: false,
      code: usageError(io, help, `Unexpected argument: ${positionals.join(' ')}`),
    };
  return { ok: true, values };
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
