#!/usr/bin/env node
/** Entry point of the `proxy-migrate` binary. */
import { main } from './cli/program.js';
import { EXIT, type CliIo } from './cli/types.js';

const io: CliIo = { stdout: process.stdout, stderr: process.stderr, env: process.env };

/**
 * Resolves once everything written to the stream so far is out: on a pipe, writes are
 * asynchronous, and exiting before they drain cut a 5,000-node `-o json` report short.
 */
const drained = (stream: NodeJS.WriteStream): Promise<void> =>
  new Promise((resolve) => {
    // A reader that went away (`| head`, a killed pipe) has nothing left to drain for.
    if (stream.destroyed || !stream.writable) return resolve();
    stream.once('error', () => resolve());
    stream.write('', () => resolve());
  });

main(process.argv.slice(2), io).then(
  async (code) => {
    await Promise.all([drained(process.stdout), drained(process.stderr)]);
    process.exit(code);
  },
  (error: unknown) => {
    process.stderr.write(`proxy-migrate: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(EXIT.failure);
  },
);
