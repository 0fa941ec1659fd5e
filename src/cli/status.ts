/** `proxy-migrate status <cluster>`: which node runs which mode, runs in flight, the lock, invariants. */
import { clusterFlags, commandLine } from './args.js';
import type { Subcommand } from './types.js';

const usage = 'proxy-migrate status <cluster> [--format text|json] [--no-probe]';

const help = `Usage: ${usage}

Shows where a migration stands: every node with the mode its kube-proxy reports (/proxyMode,
read on the node, not the label), its pool, which DaemonSet runs its kube-proxy, its label and
last result; the runs in flight and the cluster lock's holder; and the invariants (one
kube-proxy per node; the original DaemonSet's NotIn term and OnDelete strategy while a migration
is in progress; labels, pods and runs agreeing), each broken one with its repair.

  --format text|json   default text
  --no-probe           skip reading /proxyMode on the nodes (no probe pods; modes show unknown)
  --kubeconfig PATH    a kubeconfig instead of the clusters file
  --context NAME       its context

Exit codes: 0 every invariant holds, 3 an invariant is broken, 1 error, 64 usage, 78 configuration.

Example:
  proxy-migrate status cluster-a`;

const options = {
  format: { type: 'string', default: 'text' },
  'no-probe': { type: 'boolean', default: false },
  kubeconfig: { type: 'string' },
  context: { type: 'string' },
} as const;

export const statusCommand: Subcommand = {
  name: 'status',
  summary: 'which node runs which mode, runs in flight, and the migration invariants',
  help,
  run: async (argv, io) => {
    const parsed = commandLine(argv, options, help, io, {
      required: 1,
      missing: 'Which cluster?',
      formats: ['text', 'json'],
    });
    if (!parsed.ok) return parsed.code;
    const { values, args } = parsed.line;
    const [cluster = ''] = args;
    const { runStatus } = await import('./status-run.js');
    return runStatus(io, {
      cluster,
      format: parsed.line.format,
      probe: !values['no-probe'],
      ...clusterFlags(values),
      usage,
    });
  },
};
