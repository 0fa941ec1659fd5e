/** `/proxy-migrate rollback <cluster> <node> [--dry-run]`: move a node back to IPVS, approved. */
import { startNodeRun } from './node-run.js';
import { SLASH_COMMAND, type Verb } from './types.js';

const usage = `${SLASH_COMMAND} rollback <cluster> <node> [--dry-run]`;

export const rollbackVerb: Verb = {
  name: 'rollback',
  usage,
  summary:
    'move one node back to IPVS, verified the same way; by default an approver’s own rollback needs no second approval',
  run: (ctx) => startNodeRun(ctx, 'rollback', usage),
};
