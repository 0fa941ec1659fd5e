/** `proxy-migrate cutover <cluster> <node>`: move one node to nftables, verified, from a terminal. */
import {
  checkOf,
  clusterFlags,
  clusterOptions,
  commandLine,
  formatOptions,
  withExamples,
} from './args.js';
import type { CliIo, Subcommand } from './types.js';
import type { NodeRunArgs } from './node-run.js';

const usage =
  'proxy-migrate cutover [<cluster>] <node> [--yes] [--dry-run] [--no-auto-rollback] [-o text|json]';

const body = `Usage: ${usage}

Moves one node's kube-proxy from IPVS to nftables through the canary DaemonSet, and proves it:
  1. node pre-flight (kernel from uname -r, nft, conntrack; a blocker or an unknown stops it)
  2. the rollback reference (ipvsadm -Sn, iptables-save, the IPVS sync-time baseline)
  3. the plan, confirmed by a server-side dry run, and your confirmation
  4. under the cluster lock: canary objects, the node labelled (old pod gone, new pod Ready)
  5. verification with evidence; a failure rolls the node back and verifies that

  --yes                confirm without asking (required without a terminal)
  --dry-run            stop after the plan's server-side dry run: nothing is written
  --no-auto-rollback   leave the node as it is when a verification fails
  -o, --format text|json
                       the result (default text; progress goes to stderr, data to stdout)
  --kubeconfig PATH    a kubeconfig instead of the clusters file
  --context NAME       its context; with either, <cluster> may be left out (named after it)

Exit codes: 0 verified, 2 refused before any write (pre-flight block, managed platform, lock
held, plan changed, not confirmed), 4 verification failed and the node was rolled back and
verified, 5 the node needs a person (rollback failed or auto-rollback off), 1 error, 64 usage,
78 configuration (a bad kubeconfig too).`;

const examples = [
  'proxy-migrate cutover cluster-a blue-1 --dry-run',
  'proxy-migrate cutover cluster-a blue-1 --yes -o json',
  'proxy-migrate cutover blue-1 --context prod-eu --yes',
];

const help = withExamples(body, examples);

const options = {
  yes: { type: 'boolean', default: false },
  'dry-run': { type: 'boolean', default: false },
  'no-auto-rollback': { type: 'boolean', default: false },
  ...formatOptions,
  ...clusterOptions,
} as const;

function parse(
  argv: string[],
  io: CliIo,
): { ok: true; args: NodeRunArgs } | { ok: false; code: number } {
  const parsed = commandLine(argv, options, help, io, {
    required: 2,
    missing: 'Which cluster and node?',
    formats: ['text', 'json'],
  });
  if (!parsed.ok) return parsed;
  const { values, args, format } = parsed.line;
  const [cluster, node = ''] = args;
  return {
    ok: true,
    args: {
      kind: 'cutover',
      cluster,
      node,
      yes: values.yes,
      dryRun: values['dry-run'],
      autoRollback: !values['no-auto-rollback'],
      format,
      ...clusterFlags(values),
    },
  };
}

export const cutoverCommand: Subcommand = {
  name: 'cutover',
  summary: 'move one node to nftables, verified, with automatic rollback',
  help,
  options,
  examples,
  check: checkOf(parse),
  run: async (argv, io) => {
    const parsed = parse(argv, io);
    if (!parsed.ok) return parsed.code;
    const { runNodeCommand } = await import('./node-run.js');
    return runNodeCommand(io, parsed.args, usage);
  },
};
