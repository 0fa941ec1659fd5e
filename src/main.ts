#!/usr/bin/env -S node --max-semi-space-size=8
/**
 * Entry point of the `proxy-migrate` binary. The V8 flag in the line above is the binary's: since
 * Node 22 V8 lets the young generation grow to 64 MiB, which a pre-flight of 5,000 nodes fills
 * with list pages it drops a moment later, for no speed gain (bench/preflight: peak RSS 253 →
 * 175 MiB for the same lists in the same time). `env -S` (coreutils 8.30, macOS) splits it.
 */
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
