/**
 * Whether proxy-migrate may run its per-node canary here. Where the platform owns kube-proxy (the
 * EKS add-on, AKS, GKE) its add-on or reconciler reverts the canary's edits, so the switch is the
 * platform's own, cluster-wide (2026 Playbook "Where managed clusters constrain you";
 * reference/kube-proxy-facts.md §3): guidance, never blind mutation. The platform's commands come
 * from the managed-platform check's finding, so they are written once.
 */
import type { Finding } from './findings.js';
import type { Platform } from './platform.js';

export interface CanaryVerdict {
  allowed: boolean;
  /** One sentence: why. */
  reason: string;
  /** For a refusal: what to do instead. */
  remedy?: string;
  commands: string[];
  /** For an allowed canary: what can still undo it. */
  warnings: string[];
}

export interface CanaryAllowedOptions {
  /**
   * The cluster's operators confirmed kube-proxy is not the EKS managed add-on (`aws eks
   * describe-addon` finds none): the API cannot tell the add-on from a self-managed copy.
   */
  eksSelfManagedKubeProxy?: boolean;
}

const REHEARSE =
  'Rehearse first on the twin (`proxy-migrate twin`) or on a throwaway cluster of the same platform and version: with no per-node canary, that is where the confidence comes from.';

const EKS_ADDON_WARNING =
  'kube-proxy is self-managed on EKS: installing or updating the EKS kube-proxy add-on overwrites the kube-proxy DaemonSet and its ConfigMap, which removes the canary’s NotIn and OnDelete from the original. Do not install or update the add-on until every node is migrated.';

function refuse(platform: Platform, finding: Finding | undefined, fallback: string): CanaryVerdict {
  return {
    allowed: false,
    reason: `${platform.name} manages kube-proxy: ${finding?.title ?? 'the switch to nftables is the platform’s own, cluster-wide'}.`,
    remedy: `${finding?.remedy ?? fallback} ${REHEARSE}`,
    commands: [...(finding?.commands ?? [])],
    warnings: [],
  };
}

export function canaryAllowed(
  platform: Platform,
  findings: readonly Finding[],
  options: CanaryAllowedOptions = {},
): CanaryVerdict {
  const managed = findings.find((f) => f.check === 'managed-platform');
  switch (platform.kind) {
    case 'aks':
      return refuse(
        platform,
        managed,
        'Switch the mode with `az aks update --kube-proxy-config` in a maintenance window.',
      );
    case 'gke':
      return refuse(
        platform,
        managed,
        'GKE has no kube-proxy mode setting; plan a move to Dataplane V2.',
      );
    case 'eks':
      if (options.eksSelfManagedKubeProxy !== true) {
        return refuse(
          platform,
          managed,
          'Switch the add-on’s mode with `aws eks update-addon` in a maintenance window.',
        );
      }
      break;
    case 'rke2':
    case 'k3s':
      return {
        allowed: false,
        reason: `${platform.name} runs kube-proxy ${platform.kind === 'k3s' ? 'inside the k3s process' : 'as a static pod'}, not as a DaemonSet, so there is no DaemonSet to clone.`,
        remedy: `Set the mode in /etc/rancher/${platform.kind}/config.yaml on one node, restart ${platform.kind} there, verify, then go on node by node. ${REHEARSE}`,
        commands: [
          `# /etc/rancher/${platform.kind}/config.yaml\nkube-proxy-arg:\n  - proxy-mode=nftables\n  - nodeport-addresses=0.0.0.0/0,::/0`,
        ],
        warnings: [],
      };
    case 'kubeadm':
    case 'unknown':
      break;
  }
  // Bad cluster state that no per-node choice fixes (no kube-proxy, an unreadable configuration):
  // a cluster-wide block stops the canary as it stops everything else.
  const block = findings.find((f) => f.severity === 'block' && f.scope.kind === 'cluster');
  if (block !== undefined) {
    return {
      allowed: false,
      reason: block.title,
      ...(block.remedy === undefined ? {} : { remedy: block.remedy }),
      commands: [...block.commands],
      warnings: [],
    };
  }
  return {
    allowed: true,
    reason: `kube-proxy is a self-managed DaemonSet on ${platform.name}: proxy-migrate can move it one node at a time.`,
    commands: [],
    warnings: platform.kind === 'eks' ? [EKS_ADDON_WARNING] : [],
  };
}
