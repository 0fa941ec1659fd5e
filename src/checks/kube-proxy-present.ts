// Risk: migrating a kube-proxy that is not there, is packaged differently, or whose config cannot be
// read. Playbook "The 11 traps" §1 (CNI replaces kube-proxy); reference/kube-proxy-facts.md §3, §13.
import { KUBE_SYSTEM } from '../core/cluster-overview.js';
import { finding, type Finding } from '../core/findings.js';
import { findKubeProxyDaemonSet } from '../core/kube-proxy-config.js';
import { toYaml } from '../core/safe-yaml.js';
import { proxyReplacement } from './support/kube-proxy.js';
import type { Check, CheckContext } from './types.js';

const ID = 'kube-proxy-present';

function describeSource(ctx: CheckContext): string {
  const source = ctx.kubeProxy.source;
  switch (source?.kind) {
    case 'configmap':
      return `ConfigMap ${KUBE_SYSTEM}/${source.configMap}, key ${source.key} (mounted as ${source.path})`;
    case 'flags':
      return 'command-line flags on the DaemonSet (no --config file)';
    case 'unresolved':
      return `${source.path}, which could not be traced to a ConfigMap`;
    case undefined:
      return 'an unknown place';
  }
}

function missing(ctx: CheckContext): Finding {
  const scope = { kind: 'cluster', name: ctx.snapshot.cluster } as const;
  const replacement = proxyReplacement(ctx.snapshot);
  if (replacement !== undefined) {
    return finding({
      check: ID,
      severity: 'info',
      scope,
      title: `No kube-proxy: ${replacement.name} handles Services, nothing to migrate`,
      detail: `${replacement.evidence}, and no kube-proxy DaemonSet exists in ${KUBE_SYSTEM}. Service traffic does not go through kube-proxy, so there is no IPVS dataplane to move to nftables.`,
    });
  }
  const empty = findKubeProxyDaemonSet(ctx.snapshot.kubeSystemDaemonSets);
  if (empty !== undefined) {
    return finding({
      check: ID,
      severity: 'block',
      scope,
      subjects: [`${KUBE_SYSTEM}/${empty.metadata.name}`],
      title: `DaemonSet ${KUBE_SYSTEM}/${empty.metadata.name} has no container to read kube-proxy's command from`,
      detail: `The DaemonSet exists but its pod template lists no containers, so neither the flags nor the --config path can be read.`,
      remedy:
        'Check the DaemonSet as the API serves it and how kube-proxy really runs on the nodes.',
      commands: [`kubectl -n ${KUBE_SYSTEM} get ds ${empty.metadata.name} -o yaml`],
    });
  }
  const { kind, name, evidence } = ctx.platform;
  if (kind === 'k3s' || kind === 'rke2') {
    const service = kind === 'k3s' ? 'k3s' : 'rke2-server';
    const agent = kind === 'k3s' ? 'k3s-agent' : 'rke2-agent';
    const packaging =
      kind === 'k3s'
        ? 'kube-proxy runs embedded in the k3s process (no pod, no logs of its own)'
        : 'kube-proxy runs as a static pod whose manifest RKE2 regenerates on every restart';
    return finding({
      check: ID,
      severity: 'warn',
      scope,
      title: `${name}: kube-proxy is not a DaemonSet, proxy-migrate cannot canary it`,
      detail: `Detected ${name} (${evidence.join('; ')}); ${packaging}. Its mode comes from kube-proxy-arg in /etc/rancher/${kind}/config.yaml on each node, so the label-driven per-node canary (a second DaemonSet) does not apply, and proxy-migrate cannot read that file to check the current mode.`,
      remedy: `Move one node at a time by hand: set kube-proxy-arg in /etc/rancher/${kind}/config.yaml on that node (remove any ipvs-* arguments), restart ${service} (servers) or ${agent} (agents), verify, then do the next node.`,
      commands: [
        `# /etc/rancher/${kind}/config.yaml on the node being moved`,
        toYaml({ 'kube-proxy-arg': ['proxy-mode=nftables'] }),
        `sudo systemctl restart ${agent}   # ${service} on server nodes`,
      ],
    });
  }
  return finding({
    check: ID,
    severity: 'block',
    scope,
    title: `No kube-proxy DaemonSet found in ${KUBE_SYSTEM}`,
    detail: `${ctx.kubeProxy.problem ?? 'kube-proxy was not found'}. No Cilium kube-proxy replacement (cilium-config) or GKE Dataplane V2 (anetd) was found either, and the platform is ${name}. proxy-migrate cannot migrate what it cannot find.`,
    remedy:
      'Find how kube-proxy runs on this cluster (static pods, a differently named DaemonSet, another namespace) or which component replaces it, before planning a cutover.',
    commands: [
      'kubectl get ds -A -l k8s-app=kube-proxy',
      'kubectl -n kube-system get pods -o wide | grep -i proxy',
    ],
  });
}

export const kubeProxyPresent: Check = {
  id: ID,
  title: 'kube-proxy DaemonSet and its configuration found',
  run(ctx) {
    const kp = ctx.kubeProxy;
    if (kp.daemonSet === undefined) return [missing(ctx)];
    const scope = { kind: 'cluster', name: ctx.snapshot.cluster } as const;
    const ds = `${KUBE_SYSTEM}/${kp.daemonSet}`;
    if (kp.problem !== undefined) {
      return [
        finding({
          check: ID,
          severity: 'block',
          scope,
          subjects: [ds],
          title: `kube-proxy's configuration could not be read: ${kp.problem}`,
          detail: `DaemonSet ${ds} reads its configuration from ${describeSource(ctx)}. Without it proxy-migrate cannot tell which mode runs or build the nftables configuration for the canary.`,
          remedy:
            'Fix or explain the configuration source (the --config path, its volume and ConfigMap) so the config can be read, then run pre-flight again.',
          commands: [
            `kubectl -n ${KUBE_SYSTEM} get ds ${kp.daemonSet} -o jsonpath='{.spec.template.spec.containers[0].command}'`,
            `kubectl -n ${KUBE_SYSTEM} get ds ${kp.daemonSet} -o jsonpath='{.spec.template.spec.volumes}'`,
          ],
        }),
      ];
    }
    const status = ctx.snapshot.kubeSystemDaemonSets.find(
      (d) => d.metadata.name === kp.daemonSet,
    )?.status;
    const pods =
      status?.desiredNumberScheduled === undefined
        ? ''
        : ` ${status.numberReady ?? 0} of ${status.desiredNumberScheduled} pods ready.`;
    const found = `kube-proxy found: DaemonSet ${ds}, configured by ${describeSource(ctx)}`;
    const replacement = proxyReplacement(ctx.snapshot);
    if (replacement !== undefined) {
      return [
        finding({
          check: ID,
          severity: 'warn',
          scope,
          subjects: [ds],
          title: `${found}, but ${replacement.name} is also enabled`,
          detail: `${replacement.evidence}. With the replacement on, Service traffic is handled before kube-proxy's rules are reached, so moving kube-proxy to nftables changes little and its verification proves little. Image ${kp.image ?? 'unknown'}.${pods}`,
          remedy:
            'Decide first which component proxies Services here: if the replacement does, retire kube-proxy (the CNI’s kube-proxy-free guide) instead of migrating it; if it does not, fix cilium-config and run pre-flight again.',
          commands: replacement.name.startsWith('Cilium')
            ? [
                `kubectl -n ${KUBE_SYSTEM} exec ds/cilium -- cilium-dbg status | grep KubeProxyReplacement   # "cilium status" before Cilium 1.15`,
              ]
            : [],
        }),
      ];
    }
    return [
      finding({
        check: ID,
        severity: 'info',
        scope,
        subjects: [ds],
        title: found,
        detail: `Image ${kp.image ?? 'unknown'}.${pods}`,
      }),
    ];
  },
};
