/**
 * What kube-proxy's own log says about the run it belongs to: which proxier it started
 * (server_linux.go `createProxier`: "Using nftables Proxier", "Using ipvs Proxier"; older
 * releases add a period) and whether a sync or the start failed since. Strings are the real ones:
 * pkg/proxy/nftables/proxier.go ("nftables sync failed", "Sync failed" with retryingTime,
 * "Unable to delete stale chains; will retry later"), the iptables/ipvs proxiers ("Failed to
 * execute iptables-restore", "Failed to sync endpoint for service", "Failed to create dummy
 * interface"), the "Failed to list existing sets" of kubernetes/kubernetes#136786, cmd/kube-proxy/app
 * ("unable to create proxier: …", "Error running ProxyServer", "command failed").
 */
import { parseKlogLine, type KlogLine } from './klog.js';

export const loggedModes = ['iptables', 'ipvs', 'nftables'] as const;
export type LoggedMode = (typeof loggedModes)[number];

const PROXIER = /^Using (iptables|ipvs|nftables) Proxier\.?$/;

/** Messages (or message prefixes) that mean a sync did not reach the dataplane. */
const SYNC_ERRORS = [
  /^nftables sync failed/,
  /^Sync failed$/,
  /^Failed to execute iptables-restore/,
  /^Failed to sync/,
  /^Unable to delete stale chains/,
  /^Failed to list nftables sets/,
  /^Failed to list existing sets/,
  /^Failed to create dummy interface/,
  /^Failed to ensure chain exists/,
];

/** Messages that mean the proxier did not start (or the process gave up). */
const START_ERRORS = [
  /unable to create (ipv4 |ipv6 )?proxier/,
  /^Error running ProxyServer/,
  /^command failed$/,
  /^can't use the IPVS proxier/,
  /could not find nftables binary|nft version must be|requires kernel|could not run nftables command/,
];

export interface LogProblem {
  /** 0-based index in the lines read. */
  index: number;
  message: string;
  /** The `err=` field when the line has one. */
  err?: string;
  raw: string;
}

export interface KubeProxyLog {
  /** The last "Using … Proxier" line: the run the rest of the log belongs to. */
  proxier?: { mode: LoggedMode; index: number; raw: string };
  /** Sync failures after the proxier line (all of them when there is none). */
  syncErrors: LogProblem[];
  startErrors: LogProblem[];
  lines: number;
}

function problem(line: KlogLine, index: number): LogProblem {
  const err = line.fields['err'];
  return { index, message: line.message, ...(err === undefined ? {} : { err }), raw: line.raw };
}

/** Reads the lines of one container's log (oldest first), e.g. `kubectl logs <pod>` split. */
export function readKubeProxyLog(lines: readonly string[]): KubeProxyLog {
  const parsedLines = lines.map((raw) => parseKlogLine(raw));
  let proxier: KubeProxyLog['proxier'];
  parsedLines.forEach((line, index) => {
    const match = PROXIER.exec(line?.message.trim() ?? '');
    if (line !== undefined && match !== null) {
      proxier = { mode: match[1] as LoggedMode, index, raw: line.raw };
    }
  });
  const from = proxier?.index ?? -1;
  const syncErrors: LogProblem[] = [];
  const startErrors: LogProblem[] = [];
  parsedLines.forEach((line, index) => {
    if (line === undefined) return;
    if (index > from && SYNC_ERRORS.some((re) => re.test(line.message))) {
      syncErrors.push(problem(line, index));
    } else if (
      START_ERRORS.some((re) => re.test(line.message) || re.test(line.fields['err'] ?? ''))
    ) {
      startErrors.push(problem(line, index));
    }
  });
  return {
    ...(proxier === undefined ? {} : { proxier }),
    syncErrors,
    startErrors,
    lines: lines.length,
  };
}
