/** `proxy-migrate rollback <cluster> <node>`: move one node back to the original (IPVS) kube-proxy, verified. */
import { clusterFlags, commandLine } from './args.js';
import type { Subcommand } from './types.js';

const usage = 'proxy-migrate rollback <cluster> <node> [--yes] [--format text|json]';

const help = `Usage: ${usage}

Moves one node back to the original kube-proxy: the inverse of its cutover's label changes,
newest first (switching, then the label removed), waits until the original kube-proxy is Ready,
and verifies the way back with evidence (IPVS virtual servers for the Services, kube-ipvs0,
no nft table, ClusterIP and NodePort answering). The canary objects stay for the other nodes.

  --yes                confirm without asking (required without a terminal)
  --format text|json   the result (default text; progress goes to stderr)
  --kubeconfig PATH    a kubeconfig instead of the clusters file
  --context NAME       its context

Exit codes: 0 verified back on IPVS, 2 refused before any write (lock held, not confirmed),
5 the node needs a person (the way back did not verify), 1 error, 64 usage, 78 configuration.

Example:
  proxy-migrate rollback cluster-a blue-1 --yes`;

const options = {
  yes: { type: 'boolean', default: false },
  format: { type: 'string', default: 'text' },
  kubeconfig: { type: 'string' },
  context: { type: 'string' },
} as const;

export const rollbackCommand: Subcommand = {
  name: 'rollback',
  summary: 'move one node back to the original kube-proxy, verified',
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
        kind: 'rollback',
        cluster,
        node,
        yes: values.yes,
        dryRun: false,
        autoRollback: false,
        format: parsed.line.format,
        ...clusterFlags(values),
      },
      usage,
    );
  },
};
