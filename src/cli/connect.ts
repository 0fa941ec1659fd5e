/**
 * `proxy-migrate connect <cluster>`: sets up a target cluster as `argocd cluster add` does (the
 * bot's ServiceAccount, its RBAC, a token) and writes a kubeconfig entry that needs no exec
 * credential plugin.
 */
import { checkOf, clusterFlags, clusterOptions, commandLine, withExamples } from './args.js';
import type { ConnectArgs } from './connect-run.js';
import { EXIT, type CliIo, type Subcommand } from './types.js';

const usage =
  'proxy-migrate connect [<cluster>] --kubeconfig PATH [--context NAME] [--out PATH] [--clusters-file PATH] [--dry-run]';

const body = `Usage: ${usage}

Creates on the cluster, with the credentials of --kubeconfig/--context (yours, an admin's): the
Namespaces proxy-migrate and proxy-migrate-probes (Pod Security restricted and privileged), the
ServiceAccount proxy-migrate, the RBAC of deploy/rbac.yaml (built from the same table), and a
kubernetes.io/service-account-token Secret; waits for the token, then writes a kubeconfig whose
user is that token and whose cluster carries the cluster's CA: no exec plugin (aws, gke-gcloud-
auth-plugin, kubelogin) is needed where the bot runs. Each write is listed; a rerun changes
nothing that is already right. Apply deploy/admission-policy.yaml there too (Kubernetes 1.30+).

  --kubeconfig PATH       the kubeconfig to set the cluster up with (default KUBECONFIG)
  --context NAME          its context (default its current one); names <cluster> when left out
  --out PATH              kubeconfig to write (default <cluster>.kubeconfig); other entries kept
  --clusters-file PATH    also add the cluster (kubeconfig, context, probe.namespace) to this file
  --service-account NAME  default proxy-migrate
  --namespace NS          the ServiceAccount's namespace (default proxy-migrate)
  --probe-namespace NS    where probe pods run (default proxy-migrate-probes)
  --token-timeout SECONDS how long the token may take to appear (default 60)
  --dry-run               print the objects as YAML and write nothing (no cluster, no file)

Exit codes: 0 done (or printed), 1 error, 64 usage, 78 configuration (a bad kubeconfig too).`;

const examples = [
  'proxy-migrate connect prod-eu --kubeconfig ~/.kube/config --context prod-eu --dry-run',
  'proxy-migrate connect prod-eu --context prod-eu --out kube/prod-eu.yaml --clusters-file clusters.yaml',
];

const help = withExamples(body, examples);

const options = {
  ...clusterOptions,
  out: { type: 'string' },
  'clusters-file': { type: 'string' },
  'service-account': { type: 'string' },
  namespace: { type: 'string' },
  'probe-namespace': { type: 'string' },
  'token-timeout': { type: 'string' },
  'dry-run': { type: 'boolean', default: false },
} as const;

const dnsLabel = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

function parse(
  argv: string[],
  io: CliIo,
): { ok: true; args: ConnectArgs } | { ok: false; code: number } {
  const parsed = commandLine(argv, options, help, io, {
    required: 1,
    missing: 'Which cluster? Name it, or give --context.',
    formats: ['yaml'],
  });
  if (!parsed.ok) return parsed;
  const { values, args } = parsed.line;
  const fail = (message: string) => {
    io.stderr.write(`${message}\n\n${help}\n`);
    return { ok: false as const, code: EXIT.usage };
  };
  const cluster = args[0] ?? values.context?.toLowerCase().replace(/[^a-z0-9-]+/g, '-');
  if (cluster === undefined || !dnsLabel.test(cluster) || cluster.length > 40)
    return fail(
      `Cluster name "${cluster ?? ''}" must be lower-case letters, digits and dashes (at most 40).`,
    );
  const names = {
    serviceAccount: values['service-account'] ?? 'proxy-migrate',
    namespace: values.namespace ?? 'proxy-migrate',
    probeNamespace: values['probe-namespace'] ?? 'proxy-migrate-probes',
  };
  for (const [flag, value] of Object.entries(names))
    if (!dnsLabel.test(value) || value.length > 63)
      return fail(
        `--${flag.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} "${value}" must be a DNS label.`,
      );
  const timeout = Number(values['token-timeout'] ?? '60');
  if (!Number.isInteger(timeout) || timeout < 1 || timeout > 600)
    return fail('--token-timeout must be a whole number of seconds from 1 to 600.');
  return {
    ok: true,
    args: {
      cluster,
      ...clusterFlags(values),
      out: values.out ?? `${cluster}.kubeconfig`,
      ...(values['clusters-file'] === undefined ? {} : { clustersFile: values['clusters-file'] }),
      ...names,
      tokenTimeoutMs: timeout * 1000,
      dryRun: values['dry-run'],
    },
  };
}

export const connectCommand: Subcommand = {
  name: 'connect',
  summary: 'set a cluster up for the bot: ServiceAccount, RBAC, token and a plugin-free kubeconfig',
  help,
  options,
  examples,
  check: checkOf(parse),
  run: async (argv, io) => {
    const parsed = parse(argv, io);
    if (!parsed.ok) return parsed.code;
    const { runConnect } = await import('./connect-run.js');
    return runConnect(io, parsed.args);
  },
};
