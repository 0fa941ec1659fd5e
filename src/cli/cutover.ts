/** `proxy-migrate cutover <cluster> <node>`: move one node to nftables, verified, from a terminal. */
import { clusterFlags, commandLine } from './args.js';
import type { Subcommand } from './types.js';

const usage =
  'proxy-migrate cutover <cluster> <node> [--yes] [--dry-run] [--no-auto-rollback] [--format text|json]';

const help = `Usage: ${usage}

Moves one node's kube-proxy from IPVS to nftables through the canary DaemonSet, and proves it:
  1. node pre-flight (kernel from uname -r, nft, conntrack; a blocker or an unknown stops it)
  2. the rollback reference (ipvsadm -Sn, iptables-save, the IPVS sync-time baseline)
  3. the plan, confirmed by a server-side dry run, and your confirmation
  4. under the cluster lock: canary objects, the node labelled (old pod gone, new pod Ready)
  5. verification with evidence; a failure rolls the node back and verifies that

  --yes                confirm without asking (required without a terminal)
  --dry-run            stop after the plan's server-side dry run: nothing is written
  --no-auto-rollback   leave the node as it is when a verification fails
  --format text|json   the result (default text; progress goes to stderr)
  --kubeconfig PATH    a kubeconfig instead of the clusters file
  --context NAME       its context

Exit codes: 0 verified, 2 refused before any write (pre-flight block, managed platform, lock
held, plan changed, not confirmed), 4 verification failed and the node was rolled back and
verified, 5 the node needs a person (rollback failed or auto-rollback off), 1 error, 64 usage,
78 configuration.

Example:
  proxy-migrate cutover cluster-a blue-1 --dry-run
  proxy-migrate cutover cluster-a blue-1 --yes --format json`;

const options = {
  yes: { type: 'boolean', default: false },
  'dry-run': { type: 'boolean', default: false },
  'no-auto-rollback': { type: 'boolean', default: false },
  format: { type: 'string', default: 'text' },
  kubeconfig: { type: 'string' },
  context: { type: 'string' },
} as const;

export const cutoverCommand: Subcommand = {
  name: 'cutover',
  summary: 'move one node to nftables, verified, with automatic rollback',
  help,
  run: async (argv, io) => {
    const parsed = commandLine(argv, options, help, io, {
      required: 2,
      missing: 'Which cluster and node?',
      formats: ['text', 'json'],
    });
    if (!parsed.ok) return parsed.code;
    const { values, args } = parsed.line;
    const [cluster = '', node = ''] = args;
    const { runNodeCommand } = await import('./node-run.js');
    return runNodeCommand(
      io,
      {
        kind: 'cutover',
        cluster,
        node,
        yes: values.yes,
        dryRun: values['dry-run'],
        autoRollback: !values['no-auto-rollback'],
        format: parsed.line.format,
        ...clusterFlags(values),
      },
      usage,
    );
  },
};
