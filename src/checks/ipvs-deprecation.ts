// Risk: IPVS running out of road (KEP-5495: deprecated 1.35, gated 1.37, off 1.40, removed 1.43) and a
// canary rollback to IPVS that cannot start. Playbook "The 11 traps" §2; kube-proxy-facts.md §4, §10.
import { KUBE_SYSTEM } from '../core/cluster-overview.js';
import { finding, severityRank, type Finding, type Severity } from '../core/findings.js';
import { compareVersions, type Version } from '../core/parse/version.js';
import { toYaml } from '../core/safe-yaml.js';
import { configNotRead, currentConfig } from './support/kube-proxy.js';
import type { Check, CheckContext } from './types.js';

const ID = 'ipvs-deprecation';

const GATE = 'KubeProxyIPVS';

const CLOCK =
  'KEP-5495: 1.35 logs a deprecation error at every start; 1.37 adds the KubeProxyIPVS gate (on); 1.40 turns it off, so kube-proxy in IPVS mode exits unless the gate is set to true; 1.43 locks it and deletes pkg/proxy/ipvs; 1.46 removes the gate.';

const GATE_SNIPPET = [
  '# KubeProxyConfiguration: keeps IPVS starting on 1.40-1.42 only',
  toYaml({ featureGates: { [GATE]: true } }),
].join('\n');

export const ipvsStages = ['supported', 'deprecated', 'gated', 'off', 'removed'] as const;
export type IpvsStage = (typeof ipvsStages)[number];

export function ipvsStage(v: Pick<Version, 'major' | 'minor' | 'patch'>): IpvsStage {
  const before = (minor: number): boolean => compareVersions(v, { major: 1, minor, patch: 0 }) < 0;
  if (before(35)) return 'supported';
  if (before(37)) return 'deprecated';
  if (before(40)) return 'gated';
  if (before(43)) return 'off';
  return 'removed';
}

type Gate = true | false | undefined;

function severityAt(stage: IpvsStage, gate: Gate): Severity {
  switch (stage) {
    case 'supported':
      return 'info';
    case 'deprecated':
      return 'warn';
    case 'gated':
      return gate === false ? 'block' : 'warn';
    case 'off':
      return gate === true ? 'warn' : 'block';
    case 'removed':
      return 'block';
  }
}

function gateOf(ctx: CheckContext): { gate: Gate; text: string } {
  const gates = currentConfig(ctx)?.featureGates as unknown;
  const raw =
    typeof gates === 'object' && gates !== null
      ? (gates as Record<string, unknown>)[GATE]
      : undefined;
  if (raw === true || raw === false) return { gate: raw, text: `${GATE}: ${String(raw)}` };
  return { gate: undefined, text: `${GATE} not set` };
}

const label = (v: Version): string => `v${v.major}.${v.minor}.${v.patch}`;

function build(
  ctx: CheckContext,
  stage: IpvsStage,
  gate: { gate: Gate; text: string },
  v: Version,
): Omit<Finding, 'check' | 'scope' | 'subjects' | 'severity'> {
  const ds = ctx.kubeProxy.daemonSet ?? 'kube-proxy';
  const logs = [
    'kubectl get events -A --field-selector reason=IPVSDeprecation',
    `kubectl -n ${KUBE_SYSTEM} logs ds/${ds} | grep 'ipvs proxier is now deprecated'`,
  ];
  switch (stage) {
    case 'supported':
      return {
        title: `IPVS mode on kube-proxy ${label(v)}: deprecated from 1.35, off by default from 1.40, removed in 1.43`,
        detail: `${CLOCK} Migrating now, decoupled from any upgrade, keeps the choice of timing yours.`,
        commands: [],
      };
    case 'deprecated':
      return {
        title: `IPVS mode is deprecated in kube-proxy ${label(v)}: it logs an error and an IPVSDeprecation Node event at every start`,
        detail: `kube-proxy logs "The ipvs proxier is now deprecated and may be removed in a future release. Please use 'nftables' instead." at error level (kubernetes/kubernetes#134539). ${CLOCK}`,
        remedy:
          'Migrate to nftables node by node now, before an upgrade to 1.40 makes the choice for you.',
        commands: logs,
      };
    case 'gated':
      return gate.gate === false
        ? {
            title: `kube-proxy ${label(v)} has ${GATE}: false, which turns IPVS mode off`,
            detail: `The configuration disables the gate that keeps IPVS mode working, so kube-proxy in IPVS mode exits at its next start, and rolling a canary node back to IPVS would leave it without kube-proxy. ${CLOCK}`,
            remedy: `Remove ${GATE}: false from featureGates (it is on by default until 1.40) before cutting over, so a rollback to IPVS can start.`,
            commands: [
              `# KubeProxyConfiguration featureGates: delete this line`,
              `  ${GATE}: false`,
            ],
          }
        : {
            title: `IPVS mode on kube-proxy ${label(v)} (${gate.text}): it stops starting at 1.40 unless the gate is set`,
            detail: `${gate.gate === true ? `${GATE} is set to true explicitly` : `${GATE} is not set and defaults to true until 1.40`}. ${CLOCK}`,
            remedy:
              'Migrate before the upgrade to 1.40. Setting the gate on 1.40 is a stall with a hard expiry at 1.43, not a plan.',
            commands: logs,
          };
    case 'off':
      return gate.gate === true
        ? {
            title: `IPVS mode on kube-proxy ${label(v)} runs only because ${GATE}: true; it ends at 1.43`,
            detail: `${CLOCK} The gate buys time until the 1.43 upgrade and no further.`,
            remedy:
              'Finish the migration before upgrading to 1.43; keep the gate in the original configuration until then so a rollback to IPVS can start.',
            commands: logs,
          }
        : {
            title: `kube-proxy ${label(v)} does not start in IPVS mode without ${GATE}: true (${gate.text})`,
            detail: `From 1.40 the gate is off by default and kube-proxy in IPVS mode exits with an error listing the valid modes, so IPVS nodes are without kube-proxy and a canary rollback to IPVS cannot start. ${CLOCK}`,
            remedy: `Set ${GATE}: true in the current configuration to get IPVS nodes back (a stall until 1.43), then migrate node by node.`,
            commands: [GATE_SNIPPET],
          };
    case 'removed':
      return {
        title: `kube-proxy ${label(v)} has no IPVS mode: IPVS was removed in 1.43`,
        detail: `pkg/proxy/ipvs is deleted and the gate is locked off, so kube-proxy configured for IPVS cannot start and there is no IPVS to roll a canary back to. ${CLOCK}`,
        remedy:
          'Run a kube-proxy of 1.42 or older (within the version skew) with KubeProxyIPVS: true to get the nodes and the rollback path back, then migrate; or move every node to nftables at once after the kernel check.',
        commands: [GATE_SNIPPET],
      };
  }
}

export const ipvsDeprecation: Check = {
  id: ID,
  title: 'IPVS deprecation clock',
  run(ctx) {
    const mode = ctx.kubeProxy.mode;
    if (mode === undefined) return [configNotRead(ctx, ID, 'the IPVS deprecation stage')];
    if (mode.effective !== 'ipvs') return [];
    const scope = { kind: 'cluster', name: ctx.snapshot.cluster } as const;
    const running = ctx.kubeProxyVersion;
    if (running === undefined) {
      return [
        finding({
          check: ID,
          severity: 'info',
          scope,
          title: 'IPVS mode, but the kube-proxy and cluster versions could not be read',
          detail: `${CLOCK} Without a version, where this cluster stands on that clock is unknown.`,
        }),
      ];
    }
    const gate = gateOf(ctx);
    const stage = ipvsStage(running.version);
    let severity = severityAt(stage, gate.gate);
    const parts = build(ctx, stage, gate, running.version);
    let title = parts.title;
    let detail = `Version read from the ${running.evidence}. ${parts.detail}`;
    const cluster = ctx.version;
    if (cluster !== undefined && running.from === 'image') {
      const ahead = ipvsStage(cluster);
      const aheadSeverity = severityAt(ahead, gate.gate);
      if (ipvsStages.indexOf(ahead) > ipvsStages.indexOf(stage)) {
        title += `; the control plane is at ${cluster.raw}`;
        detail += ` The control plane is at ${cluster.raw} already: upgrading kube-proxy to it moves IPVS to the "${ahead}" stage${
          severityRank[aheadSeverity] < severityRank['warn']
            ? ', where IPVS mode no longer starts as configured'
            : ''
        }.`;
        if (
          severityRank[severity] > severityRank['warn'] &&
          severityRank[aheadSeverity] <= severityRank['warn']
        ) {
          severity = 'warn';
        }
      }
    }
    const remedy =
      parts.remedy ??
      (severity === 'info'
        ? undefined
        : 'Migrate to nftables before upgrading kube-proxy to the control plane’s version.');
    return [
      finding({
        check: ID,
        severity,
        scope,
        title,
        detail,
        commands: parts.commands,
        ...(remedy === undefined ? {} : { remedy }),
      }),
    ];
  },
};
