/** `/proxy-migrate cutover <cluster> <node> [--dry-run]`: node pre-flight, plan, approval card. */
import { startNodeRun } from './node-run.js';
import { SLASH_COMMAND, type Verb } from './types.js';

const usage = `${SLASH_COMMAND} cutover <cluster> <node> [--dry-run]`;

export const cutoverVerb: Verb = {
  name: 'cutover',
  usage,
  summary: 'move one node to nftables: node pre-flight, plan, approval in the thread, verify',
  run: (ctx) => startNodeRun(ctx, 'cutover', usage),
};
