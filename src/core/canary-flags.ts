/**
 * A kube-proxy without --config reads its mode from --proxy-mode, so its canary is the same command
 * line in nftables mode, with the flags that keep today's behaviour: unset --nodeport-addresses
 * means all local IPs today but only the primary ones in nftables mode, and the --ipvs-*-sync-period
 * flags apply in IPVS mode only, the --iptables-* ones in every other (cmd/kube-proxy/app/options.go,
 * processV1Alpha1Flags). reference/kube-proxy-facts.md §2, §8, §9.
 */
import type { Container } from './kube.js';
import { parseFlags } from './kube-proxy-config.js';
import { KEEP_ALL_NODEPORT_ADDRESSES } from './nftables-config.js';

export interface FlagRewrite {
  container: Container;
  /** What changed, for people: `--proxy-mode=ipvs → --proxy-mode=nftables`. */
  changes: string[];
  /** What nftables mode cannot be told through flags. */
  dropped: string[];
}

/** Boolean flags: `--name` alone means true, and the next token is not their value. */
const BOOLEAN = new Set(['conntrack-tcp-be-liberal', 'masquerade-all']);

const flagName = (token: string): string | undefined =>
  /^--?([A-Za-z0-9][A-Za-z0-9-_.]*)(?:=.*)?$/s.exec(token)?.[1];

/** Tokens of argv with every occurrence of the flag (both `--k=v` and `--k v`) taken out. */
function without(argv: readonly string[], name: string): { argv: string[]; at: number } {
  const out: string[] = [];
  let at = -1;
  for (let i = 0; i < argv.length; i += 1) {
    const token = argv[i] ?? '';
    if (flagName(token) !== name) {
      out.push(token);
      continue;
    }
    if (at === -1) at = out.length;
    const next = argv[i + 1];
    const separateValue = !token.includes('=') && !BOOLEAN.has(name);
    if (separateValue && next !== undefined && !next.startsWith('-')) i += 1;
  }
  return { argv: out, at };
}

/** Sets a flag where it stands (command or args), else at the end of args (or command). */
function setFlag(container: Container, name: string, value: string): Container {
  const token = `--${name}=${value}`;
  const command = without(container.command ?? [], name);
  const args = without(container.args ?? [], name);
  if (command.at >= 0) command.argv.splice(command.at, 0, token);
  else if (args.at >= 0 || container.args !== undefined)
    args.argv.splice(args.at >= 0 ? args.at : args.argv.length, 0, token);
  else command.argv.push(token);
  return {
    ...container,
    ...(container.command === undefined && command.argv.length === 0
      ? {}
      : { command: command.argv }),
    ...(container.args === undefined && args.argv.length === 0 ? {} : { args: args.argv }),
  };
}

export interface FlagOptions {
  /** Add --conntrack-tcp-be-liberal=true (nodes on kernels before 6.1). */
  tcpBeLiberal: boolean;
}

/** The kube-proxy container of a flags-only DaemonSet, rewritten for nftables mode. */
export function nftablesFlags(container: Container, options: FlagOptions): FlagRewrite {
  const flags = parseFlags([...(container.command ?? []), ...(container.args ?? [])]);
  const mode = flags.get('proxy-mode') ?? '';
  const changes: string[] = [];
  const dropped: string[] = [];
  let next = setFlag(container, 'proxy-mode', 'nftables');
  changes.push(
    `${mode === '' ? '(no --proxy-mode: iptables)' : `--proxy-mode=${mode}`} → --proxy-mode=nftables`,
  );

  if (mode === 'ipvs') {
    for (const period of ['sync-period', 'min-sync-period']) {
      const value = flags.get(`ipvs-${period}`);
      if (value === undefined) continue;
      next = setFlag(next, `iptables-${period}`, value);
      changes.push(
        `--ipvs-${period}=${value} → --iptables-${period}=${value} (the one nftables mode reads)`,
      );
    }
  }
  const npa = (flags.get('nodeport-addresses') ?? '').trim();
  if (npa === '') {
    const all = KEEP_ALL_NODEPORT_ADDRESSES.join(',');
    next = setFlag(next, 'nodeport-addresses', all);
    changes.push(
      `added --nodeport-addresses=${all}: unset means all local IPs today but only the primary IPs in nftables mode`,
    );
  }
  if (options.tcpBeLiberal && flags.get('conntrack-tcp-be-liberal') !== 'true') {
    next = setFlag(next, 'conntrack-tcp-be-liberal', 'true');
    changes.push(
      'added --conntrack-tcp-be-liberal=true: nodes run kernels before 6.1, where nftables mode has no INVALID-drop workaround',
    );
  }
  const bit = flags.get('iptables-masquerade-bit');
  if (bit !== undefined && bit !== '14') {
    dropped.push(
      `--iptables-masquerade-bit=${bit}: nftables mode reads nftables.masqueradeBit, which no flag sets (default 14); move kube-proxy to a --config file to keep it`,
    );
  }
  return { container: next, changes, dropped };
}
