/** Every terminal subcommand, in the order `--help` lists them. */
import { auditCommand } from './audit.js';
import { botCommand } from './bot.js';
import { completionCommand } from './completion.js';
import { connectCommand } from './connect.js';
import { cutoverCommand } from './cutover.js';
import { planCommand } from './plan.js';
import { resumeCommand } from './resume.js';
import { rollbackCommand } from './rollback.js';
import { statusCommand } from './status.js';
import { demoCommand } from './demo.js';
import { preflightCommand } from './preflight.js';
import { twinCommand } from './twin.js';
import type { Subcommand } from './types.js';
import { versionCommand } from './version.js';
import { workerCommand } from './worker.js';

export const subcommands: readonly Subcommand[] = [
  demoCommand,
  preflightCommand,
  planCommand,
  cutoverCommand,
  rollbackCommand,
  statusCommand,
  resumeCommand,
  auditCommand,
  connectCommand,
  botCommand,
  workerCommand,
  twinCommand,
  completionCommand(() => subcommands),
  versionCommand,
];
