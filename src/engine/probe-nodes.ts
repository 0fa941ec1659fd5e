/**
 * Reads each node's host facts through the NodeShell: the running kernel, host nft, conntrack
 * counters, the host's own addresses and the mode kube-proxy reports. Bounded concurrency and a
 * deadline per node; a node that cannot be probed becomes errors in its facts (a finding later),
 * never a failed run.
 */
import { invalidPerCpu, parseConntrackStats } from '../core/parse/conntrack.js';
import { hostOwnAddresses } from '../core/host-addresses.js';
import { parseIpJson } from '../core/parse/ip-json.js';
import { parseNftVersion } from '../core/parse/nft-version.js';
import { parseSysctlLines, parseSysctlNumber } from '../core/parse/sysctl.js';
import { internalIP, isReady } from '../core/nodes.js';
import type { KubeNode } from '../core/kube.js';
import type { NodeFacts } from '../core/snapshot.js';
import { asAppError } from '../errors.js';
import type { CommandResult, NodeShell } from '../ports/node-shell.js';
import { mapLimit } from './concurrency.js';
import { HOST_ROOT } from '../ports/node-shell.js';

export interface ProbeOptions {
  /** Nodes probed at once (default 20). */
  concurrency?: number;
  /** Deadline for one command on a node (default 10 s). */
  commandTimeoutMs?: number;
  onProgress?: (done: number, total: number) => void;
}

type Probe = (
  run: (argv: string[]) => Promise<CommandResult>,
  node: KubeNode,
  facts: NodeFacts,
) => Promise<void>;

const ok = (result: CommandResult, what: string): string => {
  if (result.exitCode !== 0) {
    throw new Error(
      `${what} exited ${result.exitCode}: ${result.stderr.trim().split('\n')[0] ?? ''}`,
    );
  }
  return result.stdout;
};

/** One entry per fact: its name (for error reports) and how to read it. */
const probes: [string, Probe][] = [
  [
    'kernel',
    async (run, _node, facts) => {
      facts.kernel = ok(await run(['uname', '-r']), 'uname -r').trim();
    },
  ],
  [
    'nft',
    async (run, _node, facts) => {
      // The host's nft, not the probe image's: run it from the host's root (probe-pod.ts).
      const result = await run(['chroot', HOST_ROOT, 'nft', '--version']);
      // 127 from chroot: no nft on the host. kube-proxy does not need one (it uses its image's).
      if (result.exitCode === 127) {
        facts.hostNftMissing = true;
        return;
      }
      const version = parseNftVersion(ok(result, 'nft --version'));
      if (version === undefined) throw new Error('nft --version printed no version');
      facts.nftVersion = version;
    },
  ],
  [
    'conntrack',
    async (run, _node, facts) => {
      const stats = parseConntrackStats(ok(await run(['conntrack', '-S']), 'conntrack -S'));
      // Both keys in one exec (an exec per key was a seventh of a fleet probe's requests).
      const keys = ['net.netfilter.nf_conntrack_count', 'net.netfilter.nf_conntrack_max'];
      const values = parseSysctlLines(ok(await run(['sysctl', ...keys]), 'sysctl'));
      const [count, max] = keys.map((key) => parseSysctlNumber(values.get(key) ?? ''));
      facts.conntrack = {
        invalidPerCpu: invalidPerCpu(stats),
        ...(count === undefined ? {} : { count }),
        ...(max === undefined ? {} : { max }),
      };
    },
  ],
  [
    'addresses',
    async (run, _node, facts) => {
      // Where IPVS answers NodePorts today; nftables' default keeps only the primary IPs.
      // `up`: interfaces that are up, so not kube-ipvs0, which kube-proxy creates and never sets
      // up (EnsureDummyDevice is a bare LinkAdd) and which holds every ClusterIP, megabytes of
      // JSON per node with 20,000 Services; hostOwnAddresses skips it anyway, and an address on
      // a down interface receives nothing.
      const links = parseIpJson(ok(await run(['ip', '-j', 'addr', 'show', 'up']), 'ip -j addr'));
      if (!links.ok) throw new Error(links.error);
      facts.addresses = hostOwnAddresses(links.value);
    },
  ],
  [
    'proxy-mode',
    async (run, node, facts) => {
      // metricsBindAddress defaults to 127.0.0.1:10249; some platforms bind the node IP instead.
      const hosts = ['127.0.0.1', internalIP(node)].filter((h): h is string => h !== undefined);
      for (const host of hosts) {
        const result = await run([
          'curl',
          '-s',
          '--max-time',
          '3',
          `http://${host}:10249/proxyMode`,
        ]);
        if (result.exitCode === 0 && result.stdout.trim() !== '') {
          facts.proxyMode = result.stdout.trim();
          return;
        }
      }
      throw new Error('kube-proxy’s metrics port (10249) did not answer /proxyMode');
    },
  ],
];

async function probeNode(shell: NodeShell, node: KubeNode, timeoutMs: number): Promise<NodeFacts> {
  const name = node.metadata.name;
  const facts: NodeFacts = { node: name, errors: [] };
  if (!isReady(node)) {
    facts.errors.push({
      probe: 'node',
      code: 'NODE_PROBE_FAILED',
      message: 'node is NotReady: not probed',
    });
    return facts;
  }
  const run = (argv: string[]): Promise<CommandResult> => shell.run(name, argv, { timeoutMs });
  for (const [probe, read] of probes) {
    try {
      await read(run, node, facts);
    } catch (error) {
      const appError = asAppError(error);
      const code = appError.code === 'INTERNAL' ? 'NODE_PROBE_FAILED' : appError.code;
      const message = appError.code === 'INTERNAL' ? (error as Error).message : appError.message;
      facts.errors.push({ probe, code, message });
      // Without a pod or a shell, the remaining probes would fail the same way.
      if (
        appError.code === 'NODE_PROBE_TIMEOUT' ||
        appError.code === 'NODE_PROBE_FAILED' ||
        appError.code === 'PROBE_NAMESPACE_MISSING'
      )
        break;
    }
  }
  return facts;
}

export async function probeNodes(
  shell: NodeShell,
  nodes: readonly KubeNode[],
  options: ProbeOptions = {},
): Promise<NodeFacts[]> {
  let done = 0;
  return mapLimit(nodes, options.concurrency ?? 20, async (node) => {
    const facts = await probeNode(shell, node, options.commandTimeoutMs ?? 10_000);
    done += 1;
    options.onProgress?.(done, nodes.length);
    return facts;
  });
}
