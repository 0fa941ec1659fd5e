/** The `proxy-migrate` program: dispatches to one subcommand (cli/index.ts lists them). */
import { readFileSync } from 'node:fs';
import { subcommands } from './index.js';
import { EXIT, type CliIo } from './types.js';

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}

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
    'Run `proxy-migrate <command> --help` for a command’s options.',
  ].join('\n');
}

export async function main(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(`${usage()}\n`);
    return EXIT.ok;
  }
  if (name === '--version' || name === '-v') {
    io.stdout.write(`${version()}\n`);
    return EXIT.ok;
  }
  const command = subcommands.find((c) => c.name === name);
  if (command === undefined) {
    io.stderr.write(`Unknown command "${name}".\n\n${usage()}\n`);
    return EXIT.usage;
  }
  return command.run(rest, io);
}
