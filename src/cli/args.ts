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
