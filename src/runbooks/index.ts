/** Every runbook the engine can run. A new runbook is a file here plus a line below. */
import { preflightRunbook } from './preflight.js';
import type { RunbookPolicy } from './types.js';

export const runbooks: readonly RunbookPolicy[] = [preflightRunbook];
