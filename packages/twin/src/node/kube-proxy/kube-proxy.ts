// kube-proxy on one node as a state machine: start (Complete/Validate, platformCleanup, then
// newProxyServer and the mode's checks, in kube-proxy's order), sync, stop. Pure: the caller
// passes time and state in and stores what comes back. Rules survive stop, like the real thing.

import type { ServiceCatalog } from '../dataplane/catalog.js';
import { platformCleanup, type Dataplane } from '../dataplane/dataplane.js';
import type { HostFacts, HostSysctls } from '../host/host.js';
import type { ProxyEvent } from './proxier.js';
import { KlogWriter } from './klog.js';
import type { ConfigResolution, KubeProxyConfig } from './config.js';
import * as L from './logs.js';
import { createProxier } from './proxier.js';
import { noProgramming, observeProgramming, type ProgrammingStats } from './programming.js';
import { validateForVersion } from './validate.js';
import { programDataplane } from '../dataplane/programs.js';
import type { Version } from '../versions.js';

export type ProxyPhase = 'running' | 'failed' | 'completed' | 'stopped';

export type { ProxyEvent } from './proxier.js';

export interface KubeProxyRuntime {
  readonly podName: string;
  readonly version: Version;
  readonly config: KubeProxyConfig | undefined;
  readonly phase: ProxyPhase;
  readonly exitCode: number | undefined;
  /** The error kube-proxy exited with (its termination message), if it failed. */
  readonly error: string | undefined;
  readonly startedAt: number;
  readonly logs: readonly string[];
  readonly lastSyncAt: number | undefined;
  readonly syncs: number;
  /** nftables-sync-failures: time of the first failed sync of the current failing period. */
  readonly failingSince: number | undefined;
  readonly failedSyncsBefore: number;
  /** HTTP status counts served on /healthz and /livez (mutated as probes arrive). */
  readonly served: { healthz: Record<string, number>; livez: Record<string, number> };
  /** Network-programming latencies observed so far (`programming.ts`). */
  readonly programming: ProgrammingStats;
}

export interface StartInput {
  readonly podName: string;
  readonly version: Version;
  readonly resolution: ConfigResolution;
  readonly facts: HostFacts;
  readonly dataplane: Dataplane;
  readonly catalog: ServiceCatalog;
  readonly now: number;
  /** Stop before the first sync: the caller runs it later (syncKubeProxy), as the twin's timing says. */
  readonly deferFirstSync?: boolean;
}

export interface StartOutcome {
  readonly runtime: KubeProxyRuntime;
  readonly dataplane: Dataplane;
  readonly sysctls: Partial<HostSysctls>;
  readonly events: readonly ProxyEvent[];
}

/** kube-proxy's --config watcher: a write to the file makes the running process exit. */
export function exitOnConfigChange(rt: KubeProxyRuntime, now: number): KubeProxyRuntime {
  const w = new KlogWriter(now);
  const err = "content of the proxy server's configuration file was updated";
  L.logRunFailure(w, rt.version, err);
  return { ...rt, phase: 'failed', exitCode: 1, error: err, logs: appendLogs(rt.logs, w.lines) };
}

const maxLogLines = 2000;

function runtime(input: StartInput, config: KubeProxyConfig | undefined): KubeProxyRuntime {
  return {
    podName: input.podName,
    version: input.version,
    config,
    phase: 'running',
    exitCode: undefined,
    error: undefined,
    startedAt: input.now,
    logs: [],
    lastSyncAt: undefined,
    syncs: 0,
    failingSince: undefined,
    failedSyncsBefore: 0,
    served: { healthz: {}, livez: {} },
    programming: noProgramming,
  };
}

export function startKubeProxy(input: StartInput): StartOutcome {
  const { version, facts, now } = input;
  const w = new KlogWriter(now);
  const res = input.resolution;
  const exit = (
    rt: KubeProxyRuntime,
    dataplane: Dataplane,
    code: number,
    error?: string,
  ): StartOutcome => ({
    runtime: {
      ...rt,
      phase: code === 0 ? 'completed' : 'failed',
      exitCode: code,
      error,
      logs: w.lines,
    },
    dataplane,
    sysctls: {},
    events: [],
  });
  if (!res.ok) {
    if (res.plain) w.lines.push(`Error: ${res.error}`);
    else L.logCommandFailed(w, res.error);
    return exit(runtime(input, undefined), input.dataplane, 1, res.error);
  }
  const cfg = res.config;
  const rt = runtime(input, cfg);
  if (cfg.strictDecodingError !== undefined)
    w.log('E', 'options.go:380', 'Using lenient decoding as strict decoding failed', {
      err: cfg.strictDecodingError,
    });
  if (cfg.modeDefaulted) L.logModeDefaulted(w, version, cfg.mode);
  const invalid = validateForVersion(cfg, version);
  if (invalid !== undefined) {
    L.logCommandFailed(w, invalid);
    return exit(rt, input.dataplane, 1, invalid);
  }
  const modprobeFails = facts.faults.includes('ipvs-cleanup-skipped');
  const cleaned = platformCleanup(
    input.dataplane,
    cfg.mode,
    cfg.cleanupAndExit,
    version,
    modprobeFails,
  );
  if (cfg.cleanupAndExit) return exit(rt, cleaned.dataplane, 0);
  L.logNodeIPs(w, version, facts.nodeIPs);
  if (facts.faults.includes('kube-proxy-crashloop')) {
    const err = 'open /proc/sys/net/netfilter/nf_conntrack_max: permission denied';
    L.logRunFailure(w, version, err);
    return exit(rt, cleaned.dataplane, 1, err);
  }
  if (cfg.conntrack.maxPerCore > 0) L.logConntrackMax(w, version, facts.conntrack.max);
  if (cfg.mode !== 'nftables' && cfg.nodePortAddressesUnset) L.logNodePortUnset(w, version);
  L.logDualStack(w, version);
  L.logUsingProxier(w, version, cfg.mode);
  const created = createProxier(w, cfg, facts, version);
  const { sysctls, events } = created;
  if (created.error !== undefined) {
    L.logRunFailure(
      w,
      version,
      `unable to create proxier: unable to create ipv4 proxier: ${created.error}`,
    );
    return { ...exit(rt, cleaned.dataplane, 1, created.error), sysctls };
  }
  L.logStartupTail(w, version);
  for (const address of created.rejectedLoopback)
    w.log(
      'E',
      'proxier.go:509',
      '--nodeport-addresses includes localhost but localhost NodePorts are not supported',
      { address },
    );
  if (input.deferFirstSync)
    return { runtime: { ...rt, logs: w.lines }, dataplane: cleaned.dataplane, sysctls, events };
  const dataplane = programDataplane(cleaned.dataplane, cfg, facts, version, input.catalog, now);
  if (cfg.verbosity >= 2) logSync(w, cfg);
  const failing = cfg.mode === 'nftables' && facts.faults.includes('nftables-sync-failures');
  return {
    runtime: {
      ...rt,
      logs: w.lines,
      lastSyncAt: now,
      syncs: 1,
      failingSince: failing ? now + cfg.syncPeriodSeconds * 1000 : undefined,
    },
    dataplane,
    sysctls,
    events,
  };
}

function logSync(w: KlogWriter, cfg: KubeProxyConfig): void {
  if (cfg.mode === 'nftables')
    for (const ipFamily of ['IPv4', 'IPv6'])
      w.log('I', 'proxier.go:1168', 'Syncing nftables rules', { ipFamily, fullSync: true });
  else w.log('I', 'proxier.go:805', 'Syncing iptables rules', { ipFamily: 'IPv4' });
}

/** Failed nftables syncs so far: one per sync period while the fault lasts. */
export function syncFailures(rt: KubeProxyRuntime, now: number): number {
  const period = (rt.config?.syncPeriodSeconds ?? 30) * 1000;
  if (rt.failingSince === undefined || now < rt.failingSince) return rt.failedSyncsBefore;
  return rt.failedSyncsBefore + 1 + Math.floor((now - rt.failingSince) / period);
}

/** healthz: unhealthy once an update has been pending longer than 2 × syncPeriod. */
export function proxyHealthy(rt: KubeProxyRuntime, now: number): boolean {
  const period = (rt.config?.syncPeriodSeconds ?? 30) * 1000;
  return rt.failingSince === undefined || now - rt.failingSince <= 2 * period;
}

/**
 * The sync runner's maxInterval: IPVS resyncs every syncPeriod; iptables and nftables pass
 * time.Hour ("arbitrary", pkg/proxy/{iptables,nftables}/proxier.go NewProxier), so they resync
 * only on changes and hourly.
 */
export function resyncIntervalMs(rt: KubeProxyRuntime): number {
  return rt.config?.mode === 'ipvs' ? (rt.config.syncPeriodSeconds || 30) * 1000 : 3_600_000;
}

/** Time of the last successful sync, counting the periodic resyncs since the last event. */
export function lastSuccessfulSync(rt: KubeProxyRuntime, now: number): number {
  const last = rt.lastSyncAt ?? rt.startedAt;
  if (rt.failingSince !== undefined) return last;
  const period = resyncIntervalMs(rt);
  return last + Math.max(0, Math.floor((now - last) / period)) * period;
}

export function stopKubeProxy(rt: KubeProxyRuntime): KubeProxyRuntime {
  return rt.phase === 'running' ? { ...rt, phase: 'stopped' } : rt;
}

/** One sync: programs the current Services unless the nftables-sync-failures fault is active. */
export function syncKubeProxy(
  rt: KubeProxyRuntime,
  dp: Dataplane,
  catalog: ServiceCatalog,
  facts: HostFacts,
  now: number,
): { runtime: KubeProxyRuntime; dataplane: Dataplane } {
  const cfg = rt.config;
  if (rt.phase !== 'running' || !cfg) return { runtime: rt, dataplane: dp };
  const w = new KlogWriter(now);
  if (cfg.mode === 'nftables' && facts.faults.includes('nftables-sync-failures')) {
    w.log('E', 'proxier.go:1815', 'nftables sync failed', {
      err: '/dev/stdin:3:1-61: Error: Could not process rule: Device or resource busy',
      ipFamily: 'IPv4',
    });
    const failingSince = rt.failingSince ?? now;
    return { runtime: { ...rt, failingSince, logs: appendLogs(rt.logs, w.lines) }, dataplane: dp };
  }
  if (cfg.verbosity >= 2) logSync(w, cfg);
  return {
    runtime: {
      ...rt,
      failingSince: undefined,
      failedSyncsBefore: syncFailures(rt, now),
      lastSyncAt: now,
      syncs: rt.syncs + 1,
      logs: appendLogs(rt.logs, w.lines),
      programming: observeProgramming(rt.programming, catalog, rt.startedAt, now),
    },
    dataplane: programDataplane(dp, cfg, facts, rt.version, catalog, now),
  };
}

function appendLogs(logs: readonly string[], more: readonly string[]): string[] {
  const all = [...logs, ...more];
  return all.length > maxLogLines ? all.slice(all.length - maxLogLines) : all;
}
