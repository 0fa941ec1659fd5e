/** Every runbook, by run kind: the engine looks runs up here. */
import type { RunKind, Runbook } from '../core/runbook.js';
import { cutoverRunbook } from './cutover.js';
import { preflightRunbook } from './preflight.js';
import { repairRunbook } from './repair.js';
import { rollbackRunbook } from './rollback.js';

export const runbooks: Readonly<Record<RunKind, Runbook>> = {
  preflight: preflightRunbook,
  cutover: cutoverRunbook,
  rollback: rollbackRunbook,
  repair: repairRunbook,
};
