/** The `proxy-migrate` program: dispatches to one subcommand (cli/index.ts lists them). */
import { subcommands } from './index.js';
import { EXIT, type CliIo } from './types.js';
import { packageVersion } from './version.js';

export function usage(): string {
  const width = Math.max(...subcommands.map((c) => c.name.length));
  return [
    'Usage: proxy-migrate <command> [options]',
    '',
    'Moves Kubernetes kube-proxy from IPVS to nftables one node at a time, from Slack or a terminal.',
    '',
    'Commands:',
    ...subcommands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Options: --help (-h), --version (-v). Commands with --format also take -o/--output.',
    'Colour only on a terminal, and never with NO_COLOR set; progress on stderr, data on stdout.',
    '',
    'Run `proxy-migrate <command> --help` for a command’s options, exit codes and examples.',
  ].join('\n');
}

export async function main(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(`${usage()}\n`);
    return EXIT.ok;
  }
  if (name === '--version' || name === '-v') {
    io.stdout.write(`${packageVersion()}\n`);
    return EXIT.ok;
  }
  const command = subcommands.find((c) => c.name === name);
  if (command === undefined) {
    io.stderr.write(`Unknown command "${name}".\n\n${usage()}\n`);
    return EXIT.usage;
  }
  return command.run(rest, io);
}
