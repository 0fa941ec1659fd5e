/** Every terminal subcommand, in the order `--help` lists them. */
import { botCommand } from './bot.js';
import { cutoverCommand } from './cutover.js';
import { rollbackCommand } from './rollback.js';
import { demoCommand } from './demo.js';
import { preflightCommand } from './preflight.js';
import { twinCommand } from './twin.js';
import type { Subcommand } from './types.js';
import { workerCommand } from './worker.js';

export const subcommands: readonly Subcommand[] = [
  demoCommand,
  preflightCommand,
  cutoverCommand,
  rollbackCommand,
  botCommand,
  workerCommand,
  twinCommand,
];
