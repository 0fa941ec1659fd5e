#!/usr/bin/env node
/** Entry point of the `proxy-migrate` binary. */
import { main } from './cli/program.js';
import { EXIT, type CliIo } from './cli/types.js';

const io: CliIo = { stdout: process.stdout, stderr: process.stderr, env: process.env };
main(process.argv.slice(2), io).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`proxy-migrate: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(EXIT.failure);
  },
);
