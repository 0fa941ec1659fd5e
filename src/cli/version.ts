/** `proxy-migrate version` (and `--version`): the package's version, read from its package.json. */
import { readFileSync } from 'node:fs';
import { checkOf, flagsOnly, withExamples } from './args.js';
import { EXIT, type CliIo, type Subcommand } from './types.js';

/**
 * The version in package.json, found relative to this module: src/cli/ (run through tsx) and
 * dist/cli/ (the built binary) are both two levels below the package root.
 */
export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}

const examples = ['proxy-migrate version'];

const help = withExamples(
  `Usage: proxy-migrate version

Prints the version of proxy-migrate (also \`proxy-migrate --version\` or \`-v\`).`,
  examples,
);

const options = {} as const;

const parse = (argv: string[], io: CliIo) => flagsOnly(argv, options, help, io);

export const versionCommand: Subcommand = {
  name: 'version',
  summary: 'print the version',
  help,
  options,
  examples,
  check: checkOf(parse),
  run: (argv, io) => {
    const parsed = parse(argv, io);
    if (!parsed.ok) return Promise.resolve(parsed.code);
    io.stdout.write(`${packageVersion()}\n`);
    return Promise.resolve(EXIT.ok);
  },
};
