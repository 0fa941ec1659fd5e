// Risk: a per-node canary on a managed platform whose add-on or reconciler reverts the edits. 2026
// Playbook "Where managed clusters constrain you"; reference/kube-proxy-facts.md §3.
import { KUBE_SYSTEM } from '../core/cluster-overview.js';
import { finding, type Finding } from '../core/findings.js';
import { imageTag } from '../core/parse/image-tag.js';
import { compareVersions, parseVersion } from '../core/parse/version.js';
import type { Check, CheckContext } from './types.js';

const ID = 'managed-platform';

const MIN_VPC_CNI = { major: 1, minor: 23, patch: 0 } as const;
const MIN_MANAGED_K8S = { major: 1, minor: 33, patch: 0 } as const;

const CANARY_LIMITS =
  'proxy-migrate’s per-node canary edits the kube-proxy DaemonSet (a NotIn node affinity) and adds a second DaemonSet and ConfigMap; the platform’s add-on or reconciler owns kube-proxy and reverts such edits, so here the switch is cluster-wide, made through the platform’s own setting.';

function detected(ctx: CheckContext): string {
  const evidence = ctx.platform.evidence.join('; ');
  return `Detected ${ctx.platform.name}${evidence === '' ? '' : ` (${evidence})`}.`;
}

function versionNote(ctx: CheckContext): string {
  const v = ctx.version;
  if (v === undefined)
    return `The cluster version ("${ctx.snapshot.kubernetesVersion}") could not be read.`;
  return compareVersions(v, MIN_MANAGED_K8S) >= 0
    ? `Cluster ${v.raw} meets the 1.33 minimum.`
    : `Cluster ${v.raw} is below the 1.33 minimum: upgrade it first.`;
}

/** `arn:aws:eks:…:cluster/NAME` gives the EKS name; other cluster names are the user's own. */
function eksName(cluster: string): string {
  return /^arn:aws[\w-]*:eks:[^:]*:\d*:cluster\/(.+)$/.exec(cluster)?.[1] ?? '<eks-cluster-name>';
}

function vpcCni(ctx: CheckContext): string {
  const ds = ctx.snapshot.kubeSystemDaemonSets.find((d) => d.metadata.name === 'aws-node');
  if (ds === undefined) {
    return `No ${KUBE_SYSTEM}/aws-node DaemonSet: the Amazon VPC CNI is not in use or not found; check your CNI's nftables support instead.`;
  }
  const containers = ds.spec?.template?.spec?.containers ?? [];
  const image = (containers.find((c) => c.name === 'aws-node') ?? containers[0])?.image;
  const tag = image === undefined ? undefined : imageTag(image);
  const v = parseVersion(tag ?? '');
  if (v === undefined) {
    return `The VPC CNI version could not be read from ${image ?? 'the aws-node DaemonSet'}; it must be v1.23.0 or later.`;
  }
  return compareVersions(v, MIN_VPC_CNI) >= 0
    ? `Amazon VPC CNI ${tag ?? ''} meets the v1.23.0 minimum for nftables.`
    : `Amazon VPC CNI ${tag ?? ''} is below v1.23.0, the minimum for nftables: update the vpc-cni add-on first.`;
}

function eks(ctx: CheckContext): Finding {
  const name = eksName(ctx.snapshot.cluster);
  const addonVersion = imageTag(ctx.kubeProxy.image ?? '') ?? '<kube-proxy-addon-version>';
  const special = ctx.snapshot.nodes.filter((n) =>
    ['fargate', 'auto'].includes(n.metadata.labels?.['eks.amazonaws.com/compute-type'] ?? ''),
  ).length;
  return finding({
    check: ID,
    severity: 'warn',
    scope: { kind: 'cluster', name: ctx.snapshot.cluster },
    title: 'Amazon EKS: kube-proxy is an add-on, the switch to nftables is cluster-wide',
    detail: `${detected(ctx)} ${CANARY_LIMITS} An add-on update with --resolve-conflicts OVERWRITE resets direct edits to the add-on's DaemonSet and kube-proxy-config ConfigMap to the EKS defaults (PRESERVE keeps them, NONE lets the update fail on a conflict; EKS UpdateAddon API), and AWS calls the mode switch disruptive (do it off-hours). Requirements (EKS nftables guide): EKS 1.33+, kernel 5.13+ on every node (AL2023 yes, AL2 no), Amazon VPC CNI v1.23.0+. ${versionNote(ctx)} ${vpcCni(ctx)}${special > 0 ? ` ${special} node(s) are Fargate or Auto Mode nodes, which do not run the kube-proxy DaemonSet.` : ''} Rehearse on a throwaway cluster of the same version first: the canary is lost, so buy the confidence there. If describe-addon finds no kube-proxy add-on, kube-proxy is self-managed and the per-node canary works after all.`,
    remedy:
      'Confirm the add-on version accepts nftables in its configuration schema, rehearse on a throwaway cluster, then switch the add-on in a maintenance window.',
    commands: [
      `aws eks describe-addon --cluster-name ${name} --addon-name kube-proxy`,
      `aws eks describe-addon-configuration --addon-name kube-proxy --addon-version ${addonVersion} --query configurationSchema --output text`,
      `aws eks update-addon --cluster-name ${name} --addon-name kube-proxy --configuration-values '{"mode":"nftables"}'`,
    ],
  });
}

function aks(ctx: CheckContext): Finding {
  return finding({
    check: ID,
    severity: 'warn',
    scope: { kind: 'cluster', name: ctx.snapshot.cluster },
    title: 'Azure AKS: kube-proxy is AKS-managed, the switch to nftables is cluster-wide',
    detail: `${detected(ctx)} ${CANARY_LIMITS} AKS sets the mode through networkProfile.kubeProxyConfig; NFTABLES is in preview: it needs the KubeProxyConfigurationPreview feature flag, API version 2025-09-02-preview or later, and Kubernetes 1.33+ (the upstream GA release the preview is aligned with; AKS's page states no minimum version, so treat 1.33 as this tool's floor). ${versionNote(ctx)} Rehearse on a throwaway cluster of the same version first.`,
    remedy:
      'Register the preview feature, rehearse on a throwaway cluster, then apply kube-proxy.json with mode NFTABLES in a maintenance window.',
    commands: [
      'az feature register --namespace Microsoft.ContainerService --name KubeProxyConfigurationPreview',
      'az extension add --name aks-preview',
      `# kube-proxy.json\n{"enabled": true, "mode": "NFTABLES"}`,
      'az aks update --resource-group <resource-group> --name <cluster> --kube-proxy-config kube-proxy.json',
    ],
  });
}

function gke(ctx: CheckContext): Finding {
  const dataplaneV2 = ctx.snapshot.kubeSystemDaemonSets.some((d) => d.metadata.name === 'anetd');
  const scope = { kind: 'cluster', name: ctx.snapshot.cluster } as const;
  if (dataplaneV2) {
    return finding({
      check: ID,
      severity: 'info',
      scope,
      title: 'Google GKE with Dataplane V2: no kube-proxy to migrate',
      detail: `DaemonSet ${KUBE_SYSTEM}/anetd runs: GKE Dataplane V2 (Cilium-based) replaces kube-proxy, and GKE offers no kube-proxy mode setting.`,
    });
  }
  return finding({
    check: ID,
    severity: 'warn',
    scope,
    title: 'Google GKE: kube-proxy is GKE-managed and has no mode setting',
    detail: `${detected(ctx)} ${CANARY_LIMITS} GKE does not expose kube-proxy's mode; Google's path is GKE Dataplane V2, which replaces kube-proxy rather than reconfiguring it.`,
    remedy:
      'Plan a move to Dataplane V2 (typically a new cluster created with it) instead of a kube-proxy cutover.',
    commands: [
      `gcloud container clusters describe <cluster> --location <location> --format='value(networkConfig.datapathProvider)'`,
      'gcloud container clusters create <new-cluster> --location <location> --enable-dataplane-v2',
    ],
  });
}

export const managedPlatform: Check = {
  id: ID,
  title: 'Platform lets proxy-migrate run a per-node canary',
  run(ctx) {
    switch (ctx.platform.kind) {
      case 'eks':
        return [eks(ctx)];
      case 'aks':
        return [aks(ctx)];
      case 'gke':
        return [gke(ctx)];
      case 'rke2':
      case 'k3s':
      case 'kubeadm':
      case 'unknown':
        return [];
    }
  },
};
