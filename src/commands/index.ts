/** Every Slack verb, in the order help lists them. A new verb is a file here plus a line below. */
import { auditVerb } from './audit.js';
import { clustersVerb } from './clusters.js';
import { cutoverVerb } from './cutover.js';
import { helpVerb } from './help.js';
import { planVerb } from './plan.js';
import { preflightVerb } from './preflight.js';
import { rollbackVerb } from './rollback.js';
import { statusVerb } from './status.js';
import type { Verb } from './types.js';

export const verbs: readonly Verb[] = [
  helpVerb(() => verbs),
  clustersVerb,
  preflightVerb,
  planVerb,
  cutoverVerb,
  rollbackVerb,
  statusVerb,
  auditVerb,
];
