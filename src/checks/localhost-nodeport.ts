/**
 * Guards against callers of `127.0.0.1:<nodePort>`, which nftables mode does not answer by default
 * (KEP-3866; opt-in KEP-6032; facts §8; playbook 000 trap 7). IPVS never answered them either, so
 * only callers that iptables mode serves today lose anything in the move.
 */
import { finding } from '../core/findings.js';
import type { Container, KubeDaemonSet, KubePod, PodSpec } from '../core/kube.js';
import { ruleExpressions } from './support/prometheus-rules.js';
import { nodePortServices, serviceName } from './support/services.js';
import { clippedList, evidenceList, nameList, plural } from './support/text.js';
import type { Check, CheckContext } from './types.js';

const DEFAULT_RANGE = { min: 30000, max: 32767 } as const;

/** `127.x.x.x:port`, `localhost:port`, `[::1]:port`, not inside a longer name or number. */
const LOOPBACK_ENDPOINT =
  /(?:(?<![\w.-])(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|localhost)|(\[::1\])):(\d{1,5})(?!\d)/gi;

interface Reference {
  /** `namespace/name` of the object to change. */
  object: string;
  /** `DaemonSet`, `ConfigMap`, `PrometheusRule`, … */
  kind: string;
  /** Where in the object: `container agent args`, `data key prometheus.yml`. */
  where: string;
  endpoint: string;
  port: number;
}

interface Range {
  min: number;
  max: number;
}

export function loopbackEndpoints(text: string): { endpoint: string; port: number }[] {
  const found: { endpoint: string; port: number }[] = [];
  for (const match of text.matchAll(LOOPBACK_ENDPOINT)) {
    const host = match[1] ?? match[2] ?? '';
    const port = Number(match[3]);
    found.push({ endpoint: `${host}:${port}`, port });
  }
  return found;
}

/** The apiserver's `--service-node-port-range`, when its static pod is among the hostNetwork pods. */
function nodePortRange(pods: readonly KubePod[]): Range {
  for (const pod of pods) {
    for (const c of pod.spec?.containers ?? []) {
      for (const arg of [...(c.command ?? []), ...(c.args ?? [])]) {
        const match = /^--service-node-port-range=(\d+)-(\d+)$/.exec(arg);
        if (match) return { min: Number(match[1]), max: Number(match[2]) };
      }
    }
  }
  return DEFAULT_RANGE;
}

/** Probes are not in the shared Container type; read them defensively from the API object. */
function probeTexts(container: Container): string[] {
  const texts: string[] = [];
  const record = container as unknown as Record<string, unknown>;
  for (const key of ['livenessProbe', 'readinessProbe', 'startupProbe']) {
    const probe = record[key];
    if (probe === null || typeof probe !== 'object') continue;
    for (const handler of ['httpGet', 'tcpSocket', 'grpc']) {
      const target = (probe as Record<string, unknown>)[handler];
      if (target === null || typeof target !== 'object') continue;
      const { host, port } = target as { host?: unknown; port?: unknown };
      if (typeof host === 'string' && (typeof port === 'number' || typeof port === 'string')) {
        texts.push(`${key} ${handler}: ${host}:${port}`);
      }
    }
  }
  return texts;
}

function containerTexts(spec: PodSpec | undefined): { where: string; text: string }[] {
  const containers = [...(spec?.initContainers ?? []), ...(spec?.containers ?? [])];
  return containers.flatMap((c) => [
    ...(c.command ?? []).map((text) => ({ where: `container ${c.name} command`, text })),
    ...(c.args ?? []).map((text) => ({ where: `container ${c.name} args`, text })),
    ...(c.env ?? []).map((e) => ({
      where: `container ${c.name} env ${e.name}`,
      text: e.value ?? '',
    })),
    ...probeTexts(c).map((text) => ({ where: `container ${c.name} probe`, text })),
  ]);
}

function podOwner(pod: KubePod): { kind: string; object: string } {
  const namespace = pod.metadata.namespace ?? 'default';
  const refs = pod.metadata.ownerReferences ?? [];
  const owner = refs.find((r) => r.controller === true) ?? refs[0];
  return owner === undefined
    ? { kind: 'Pod', object: `${namespace}/${pod.metadata.name}` }
    : { kind: owner.kind, object: `${namespace}/${owner.name}` };
}

function hostNetworkDaemonSets(daemonSets: readonly KubeDaemonSet[]) {
  return daemonSets.filter((ds) => ds.spec?.template?.spec?.hostNetwork === true);
}

/**
 * Where loopback NodePorts answer today. iptables mode answers them (iptables.localhostNodePorts,
 * on by default, sets route_localnet=1); IPVS never did and nftables does not (facts §8).
 */
type Today =
  { kind: 'iptables'; where: string } | { kind: 'failing'; modes: string } | { kind: 'unknown' };

function loopbackToday(ctx: CheckContext): Today {
  const effective = ctx.kubeProxy.mode?.effective;
  const probed = ctx.snapshot.nodes.flatMap((n) => {
    const mode = ctx.factsOf(n.metadata.name)?.proxyMode?.trim();
    return mode === undefined || mode === '' ? [] : [{ node: n.metadata.name, mode }];
  });
  const onIptables = probed.filter((p) => p.mode === 'iptables').map((p) => p.node);
  if (effective === 'iptables') {
    return { kind: 'iptables', where: 'kube-proxy runs in iptables mode' };
  }
  if (onIptables.length > 0) {
    return {
      kind: 'iptables',
      where: `${plural(onIptables.length, 'node')} ${onIptables.length === 1 ? 'reports' : 'report'} iptables on /proxyMode (${clippedList(onIptables.sort())})`,
    };
  }
  const modes = new Set(probed.map((p) => p.mode));
  if (effective !== undefined && effective !== 'unknown') modes.add(effective);
  if (modes.size > 0 && [...modes].every((m) => m === 'ipvs' || m === 'nftables')) {
    return { kind: 'failing', modes: [...modes].sort().join(' and ') };
  }
  return { kind: 'unknown' };
}

export const localhostNodeport: Check = {
  id: 'localhost-nodeport',
  title: 'Nothing calls a NodePort on 127.0.0.1',
  run(ctx) {
    const { snapshot } = ctx;
    const range = nodePortRange(snapshot.hostNetworkPods);
    const byPort = new Map<number, string>();
    for (const svc of nodePortServices(snapshot.services)) {
      for (const p of svc.spec?.ports ?? []) {
        if (p.nodePort !== undefined) byPort.set(p.nodePort, serviceName(svc));
      }
    }
    const isNodePort = (port: number) =>
      byPort.has(port) || (port >= range.min && port <= range.max);

    const refs = new Map<string, Reference>();
    const scan = (kind: string, object: string, where: string, text: string) => {
      for (const { endpoint, port } of loopbackEndpoints(text)) {
        if (!isNodePort(port)) continue;
        const key = `${kind}|${object}|${endpoint}`;
        if (!refs.has(key)) refs.set(key, { object, kind, where, endpoint, port });
      }
    };
    for (const pod of snapshot.hostNetworkPods) {
      const { kind, object } = podOwner(pod);
      for (const { where, text } of containerTexts(pod.spec)) scan(kind, object, where, text);
    }
    for (const ds of hostNetworkDaemonSets(snapshot.kubeSystemDaemonSets)) {
      const object = `${ds.metadata.namespace ?? 'kube-system'}/${ds.metadata.name}`;
      for (const { where, text } of containerTexts(ds.spec?.template?.spec)) {
        scan('DaemonSet', object, where, text);
      }
    }
    const configMaps = new Map(
      [...snapshot.kubeSystemConfigMaps, ...snapshot.configMaps].map((cm) => [
        `${cm.metadata.namespace ?? 'kube-system'}/${cm.metadata.name}`,
        cm,
      ]),
    );
    for (const [object, cm] of configMaps) {
      for (const [key, value] of Object.entries(cm.data ?? {})) {
        scan('ConfigMap', object, `data key ${key}`, value);
      }
    }
    for (const r of ruleExpressions(snapshot.prometheusRules ?? [])) {
      const name = r.alert ?? r.record ?? 'rule';
      scan('PrometheusRule', r.object, `group ${r.group} ${name} expr`, r.expr);
    }

    const scope = { kind: 'cluster' as const, name: snapshot.cluster };
    const grep = "grep -rnE '127.0.0.1:3[0-2][0-9][0-9][0-9]' /etc /usr/lib/systemd";
    const found = [...refs.values()].sort(
      (a, b) => a.object.localeCompare(b.object) || a.port - b.port,
    );
    if (found.length === 0) {
      if (byPort.size === 0) return [];
      return [
        finding({
          check: localhostNodeport.id,
          severity: 'info',
          scope,
          title: `No hostNetwork pod, ConfigMap or PrometheusRule calls a NodePort on loopback (${plural(byPort.size, 'NodePort')} in use)`,
          detail:
            'Only API objects were searched. systemd units, host monitoring configs and scripts on the nodes are outside the API: grep them before the roll-out.',
          commands: [grep],
        }),
      ];
    }
    const objects = [...new Set(found.map((r) => r.object))];
    const endpoints = [
      ...new Set([...found].sort((a, b) => a.port - b.port).map((r) => r.endpoint)),
    ];
    const lines = found.map((r) => {
      const svc = byPort.get(r.port);
      const target =
        svc === undefined ? 'no Service has this NodePort today' : `NodePort of Service ${svc}`;
      return `${r.kind} ${r.object} (${r.where}): ${r.endpoint}, ${target}`;
    });
    const today = loopbackToday(ctx);
    // iptables answers IPv4 loopback only: `[::1]:<nodePort>` never worked in any mode (fact-check #2).
    const v6 = found.filter((r) => r.endpoint.startsWith('['));
    const v6Only = v6.length === found.length;
    const v6Note =
      v6.length === 0
        ? ''
        : ` kube-proxy never answers NodePorts on [::1], in any mode ("localhost NodePorts are never allowed with other proxy modes or with IPv6"), so ${v6Only ? 'these callers' : `the [::1] callers (${nameList([...new Set(v6.map((r) => r.endpoint))], 5)})`} already fail today.`;
    const failing = today.kind === 'failing' || (today.kind === 'iptables' && v6Only);
    const dropped =
      'KEP-3866 dropped loopback NodePorts from nftables mode to avoid route_localnet, the CVE-2020-8558 surface';
    const optIn =
      'KEP-6032 brings back an opt-in (gate KubeProxyNFTablesLocalhostNodePorts, alpha in 1.37 and off by default, TCP only, loopback listed in nodePortAddresses) only in newer kube-proxy.';
    const situation =
      today.kind === 'iptables'
        ? v6Only
          ? `iptables mode answers loopback NodePorts on IPv4 only (iptables.localhostNodePorts, on by default, sets route_localnet=1; not when nodePortAddresses is set and leaves out 127.0.0.0/8) and ${today.where}, but these callers use [::1]: they fail today and keep failing after the move (${dropped}).${v6Note}`
          : `iptables mode answers loopback NodePorts on IPv4 only (iptables.localhostNodePorts, on by default, sets route_localnet=1; not when nodePortAddresses is set and leaves out 127.0.0.0/8) and ${today.where}, so the 127.0.0.1 and localhost callers can work today and fail after the move: nftables mode does not answer them (${dropped}).${v6Note}`
        : today.kind === 'failing'
          ? `Loopback NodePorts never answered in IPVS mode (until PR #101023 in 2021 IPVS created 127.0.0.1:<nodePort> virtual servers whose connections hung instead of being refused) and do not answer in nftables mode either (${dropped}). kube-proxy runs ${today.modes} here, so these callers already fail (or fall back) today; nftables keeps them failing, and the move will not fix them.`
          : `kube-proxy's mode could not be read, so whether these callers work today is unknown: iptables mode answers IPv4 loopback NodePorts, IPVS never did, and nftables mode does not (${dropped}).${v6Note}`;
    return [
      finding({
        check: localhostNodeport.id,
        severity: failing ? 'info' : 'warn',
        scope,
        subjects: objects,
        title: `${plural(objects.length, 'object')} ${objects.length === 1 ? 'calls' : 'call'} a NodePort on loopback (${nameList(endpoints, 5)})${today.kind === 'failing' ? `, which already fails in ${today.modes} mode` : failing ? ', which already fails: no mode answers [::1]' : ''}`,
        detail: `${situation} ${optIn} Found: ${evidenceList(lines, (line) => line, 15)}.`,
        remedy:
          'Point each caller at the node IP (for hostNetwork pods the downward API status.hostIP) or at the Service’s ClusterIP or DNS name and port instead of 127.0.0.1:<nodePort>; grep host files (systemd units, monitoring configs) the same way.',
        commands: [
          grep,
          "kubectl get pods,configmaps -A -o yaml | grep -nE '127.0.0.1:3[0-2][0-9][0-9][0-9]'",
          'env:\n  - name: NODE_IP\n    valueFrom:\n      fieldRef:\n        fieldPath: status.hostIP',
        ],
      }),
    ];
  },
};
