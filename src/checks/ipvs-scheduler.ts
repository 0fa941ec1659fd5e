// Risk: an IPVS scheduler someone relies on (sh for stickiness, lc for load, dh/lblc/lblcr pinning a
// Service to one backend per node) disappears: nftables picks endpoints at random. 2026 Playbook "The
// scheduler question"; reference/kube-proxy-facts.md §2; shared/reference/preflight-factcheck.md #30-33.
// mh is not stickiness: kube-proxy always sets the mh-port flag (pkg/proxy/ipvs/proxier.go,
// `if proxier.ipvsScheduler == "mh" { serv.Flags |= utilipvs.FlagSourceHash }`), so mh hashes the
// source IP and port and each new connection of one client can land on another Pod.
import { KUBE_SYSTEM } from '../core/cluster-overview.js';
import { finding, type Finding } from '../core/findings.js';
import type { KubeService } from '../core/kube.js';
import { toYaml } from '../core/safe-yaml.js';
import { configNotRead, currentConfig } from './support/kube-proxy.js';
import { serviceName } from './support/services.js';
import { clippedList } from './support/text.js';
import type { Check, CheckContext } from './types.js';

const ID = 'ipvs-scheduler';

const PER_NODE =
  'Schedulers work per node: each node\'s IPVS only sees the connections that pass through that node, which is why KEP-5495 says IPVS schedulers "aren\'t actually useful in Kubernetes".';

/** What mh does under kube-proxy (website PR #48235: "mh will work as source-hashing (sh), but with ports"). */
const MH =
  'kube-proxy always sets the mh-port flag, so mh hashes the source IP and port: each new connection from the same client can land on a different Pod, and there is no per-client stickiness to lose. Its only property beyond spreading was consistency: every node maps the same source IP and port to the same backend (which helps only when a connection fails over between nodes).';

/** What dh, lblc and lblcr do to a kube-proxy virtual server (destination = the Service VIP, constant). */
const PINNED: Record<string, string> = {
  dh: 'dh hashes the destination address, and for a kube-proxy virtual server the destination is the Service IP itself, so every connection to a Service from one node goes to a single backend (which one differs by node). It does not spread connections.',
  lblc: 'lblc is locality-based by destination address, and for a kube-proxy virtual server the destination is the Service IP itself, so every connection to a Service from one node goes to one backend until that backend is overloaded. That is destination locality, not client affinity.',
  lblcr:
    "lblcr is locality-based by destination address with replication, and for a kube-proxy virtual server the destination is the Service IP itself, so each node sends a Service's connections to a small set of backends, growing it only when they are overloaded. That is destination locality, not client affinity.",
};

const STICKY_LIST_COMMAND = `kubectl get svc -A -o json | jq -r '.items[]
  | select(.spec.sessionAffinity=="ClientIP")
  | "\\(.metadata.namespace)/\\(.metadata.name)"'`;

const AFFINITY_SNIPPET = [
  '# Service spec: the same client keeps reaching the same Pod, in every proxy mode',
  toYaml({
    spec: {
      sessionAffinity: 'ClientIP',
      sessionAffinityConfig: { clientIP: { timeoutSeconds: 10800 } },
    },
  }),
].join('\n');

/**
 * What the scheduler did to a kube-proxy Service: `stickiness` pins a client (sh), `pinned` sends a
 * Service's connections on one node to one backend or a few (dh, lblc, lblcr: the destination is the
 * VIP), `load` counts connections, `none` spreads them with nothing to keep (rr, wrr, and mh, which
 * kube-proxy runs with mh-port), `other` is a kernel scheduler kube-proxy never listed.
 */
export const schedulerIntents = ['stickiness', 'pinned', 'load', 'none', 'other'] as const;
export type SchedulerIntent = (typeof schedulerIntents)[number];

/** What a team that picked this scheduler got (playbook's scheduler table, corrected for mh/dh/lblc). */
export function schedulerIntent(scheduler: string): SchedulerIntent {
  if (scheduler === 'sh') return 'stickiness';
  if (['dh', 'lblc', 'lblcr'].includes(scheduler)) return 'pinned';
  if (['lc', 'wlc', 'sed', 'nq'].includes(scheduler)) return 'load';
  if (['rr', 'wrr', 'mh'].includes(scheduler)) return 'none';
  return 'other';
}

/** Services whose traffic kube-proxy handles: not headless, not ExternalName. */
function proxied(svc: KubeService): boolean {
  return svc.spec?.type !== 'ExternalName' && svc.spec?.clusterIP !== 'None';
}

function stickiness(ctx: CheckContext, scheduler: string, base: string, show: string[]): Finding {
  const services = ctx.snapshot.services.filter(proxied);
  const sticky = services.filter((s) => s.spec?.sessionAffinity === 'ClientIP').map(serviceName);
  const loose = services
    .filter((s) => s.spec?.sessionAffinity !== 'ClientIP')
    .map(serviceName)
    .sort();
  const few = clippedList(loose, { total: true });
  return finding({
    check: ID,
    severity: 'warn',
    scope: { kind: 'cluster', name: ctx.snapshot.cluster },
    subjects: loose,
    title: `IPVS scheduler ${scheduler} pins clients to endpoints; ${loose.length} of ${services.length} Service(s) lack sessionAffinity: ClientIP`,
    detail: `${base} ${scheduler} keeps a client on the same Pod; nftables mode picks endpoints at random, so that stickiness ends at the cutover unless the Service asks for it. Session affinity is part of the Service API and survives the move. ${sticky.length} Service(s) already set ClientIP.${loose.length > 0 ? ` Without it: ${few}.` : ''} ${PER_NODE}`,
    remedy:
      'Decide per Service whether clients must stick to one Pod; set sessionAffinity: ClientIP (timeout 10800 s by default) on those before cutting over.',
    commands: [
      ...show,
      STICKY_LIST_COMMAND,
      AFFINITY_SNIPPET,
      `kubectl -n <namespace> patch svc <name> -p '{"spec":{"sessionAffinity":"ClientIP"}}'`,
    ],
  });
}

export const ipvsScheduler: Check = {
  id: ID,
  title: 'IPVS scheduler has a replacement',
  run(ctx) {
    const mode = ctx.kubeProxy.mode;
    const config = currentConfig(ctx);
    if (mode === undefined || config === undefined) {
      return [configNotRead(ctx, ID, 'the IPVS scheduler')];
    }
    if (mode.effective !== 'ipvs') return [];
    const raw = (config.ipvs ?? {}).scheduler;
    const scheduler =
      typeof raw === 'string'
        ? raw.trim()
        : raw === undefined || raw === null
          ? ''
          : JSON.stringify(raw);
    const effective = scheduler === '' ? 'rr' : scheduler;
    const base =
      scheduler === ''
        ? 'ipvs.scheduler is empty, so kube-proxy uses rr ("IPVS scheduler not specified, use rr by default").'
        : `ipvs.scheduler is ${scheduler}.`;
    const scope = { kind: 'cluster', name: ctx.snapshot.cluster } as const;
    const source = ctx.kubeProxy.source;
    const show =
      source?.kind === 'configmap'
        ? [`kubectl -n ${KUBE_SYSTEM} get cm ${source.configMap} -o yaml | grep -A3 'ipvs:'`]
        : [];
    switch (schedulerIntent(effective)) {
      case 'none':
        return [
          finding({
            check: ID,
            severity: 'info',
            scope,
            title: `IPVS scheduler ${effective}: nothing to replace, nftables picks endpoints at random`,
            detail: `${base} ${effective === 'mh' ? `${MH} No Service needs sessionAffinity because of mh.` : `${effective} encodes no intent beyond spreading connections, which random selection in nftables mode also does.`} ${PER_NODE}`,
            commands: show,
          }),
        ];
      case 'pinned':
        return [
          finding({
            check: ID,
            severity: 'warn',
            scope,
            title: `IPVS scheduler ${effective} sends each Service's connections on a node to one backend; nftables spreads them at random`,
            detail: `${base} ${PINNED[effective] ?? ''} nftables mode picks endpoints at random, so after the cutover every backend of a Service takes connections from every node: a large change in load distribution (usually more even), not a no-op. Backends that received little or no traffic before will start to. ${PER_NODE}`,
            remedy:
              'Check that every replica of the busiest Services can take an even share of the traffic (readiness probes, resource requests, warm caches) before cutting over; this pinning was per node, not per client, so sessionAffinity: ClientIP does not restore it.',
            commands: [...show, 'kubectl get endpointslices -A'],
          }),
        ];
      case 'stickiness':
        return [stickiness(ctx, effective, base, show)];
      case 'load':
        return [
          finding({
            check: ID,
            severity: 'warn',
            scope,
            title: `IPVS scheduler ${effective} balances by load; nftables mode has no equivalent`,
            detail: `${base} ${effective} sends new connections to the endpoint with the fewest (weighted) connections, as counted on that node alone; nftables picks at random. ${PER_NODE} On a fleet of many nodes it was already close to random.`,
            remedy:
              'Decide whether any Service really needs load-aware balancing: keep slow replicas out with readiness probes, scale with an HPA, and put an L7 proxy or service mesh in front where it matters; otherwise accept random selection.',
            commands: [...show, 'kubectl get hpa -A'],
          }),
        ];
      case 'other':
        return [
          finding({
            check: ID,
            severity: 'warn',
            scope,
            title: `IPVS scheduler ${effective} has no nftables equivalent`,
            detail: `${base} nftables mode picks endpoints at random and has no scheduler setting. ${PER_NODE}`,
            remedy:
              'Find out why this scheduler was chosen; use sessionAffinity: ClientIP for stickiness, readiness probes, HPA or an L7 proxy for load, or accept random selection.',
            commands: [...show, STICKY_LIST_COMMAND],
          }),
        ];
    }
  },
};
