/** kube-proxy's configuration as the checks read it, and what they say when it cannot be read. */
import { KUBE_SYSTEM } from '../../core/cluster-overview.js';
import { finding, type Finding } from '../../core/findings.js';
import {
  findKubeProxyDaemonSet,
  kubeProxyContainer,
  type KubeProxyConfiguration,
} from '../../core/kube-proxy-config.js';
import type { ClusterSnapshot } from '../../core/snapshot.js';
import type { CheckContext } from '../types.js';
import { configFromFlags } from './kube-proxy-flags.js';

/** The check whose finding explains in full why kube-proxy's configuration is missing. */
const PRESENT_CHECK = 'kube-proxy-present';

/** Something other than kube-proxy programs Services; `undefined` when nothing says so. */
export interface ProxyReplacement {
  /** Human name, e.g. "Cilium kube-proxy replacement". */
  name: string;
  /** What gave it away, with the value read. */
  evidence: string;
}

/**
 * Cilium (`kube-proxy-replacement` "true" or the pre-1.14 "strict") or GKE Dataplane V2 (`anetd`).
 * Facts §13: `strict` is deprecated but still means "replace kube-proxy".
 */
export function proxyReplacement(
  snapshot: Pick<ClusterSnapshot, 'kubeSystemConfigMaps' | 'kubeSystemDaemonSets'>,
): ProxyReplacement | undefined {
  const cilium = snapshot.kubeSystemConfigMaps.find((cm) => cm.metadata.name === 'cilium-config');
  const raw = cilium?.data?.['kube-proxy-replacement'];
  if (raw !== undefined && ['true', 'strict'].includes(raw.trim().toLowerCase())) {
    return {
      name: 'Cilium kube-proxy replacement',
      evidence: `ConfigMap ${KUBE_SYSTEM}/cilium-config has kube-proxy-replacement: "${raw}"`,
    };
  }
  if (snapshot.kubeSystemDaemonSets.some((ds) => ds.metadata.name === 'anetd')) {
    return {
      name: 'GKE Dataplane V2',
      evidence: `DaemonSet ${KUBE_SYSTEM}/anetd (Cilium-based) is deployed`,
    };
  }
  return undefined;
}

/**
 * What a check that needs kube-proxy's configuration says when there is none to read, so the
 * report never shows a pass for something nobody could check.
 */
export function configNotRead(ctx: CheckContext, check: string, what: string): Finding {
  const replacement =
    ctx.kubeProxy.daemonSet === undefined ? proxyReplacement(ctx.snapshot) : undefined;
  if (replacement !== undefined) {
    return finding({
      check,
      severity: 'info',
      scope: { kind: 'cluster', name: ctx.snapshot.cluster },
      title: `Not applicable: ${replacement.name} replaces kube-proxy`,
      detail: `${replacement.evidence}, so Service traffic does not go through kube-proxy and there is nothing to check.`,
    });
  }
  return finding({
    check,
    severity: 'info',
    scope: { kind: 'cluster', name: ctx.snapshot.cluster },
    title: `Could not check ${what}: kube-proxy's configuration was not read`,
    detail: `${ctx.kubeProxy.problem ?? 'kube-proxy’s configuration is not available'}. See ${PRESENT_CHECK}.`,
  });
}

/**
 * The configuration kube-proxy runs with: the parsed config file, or the flags turned into one
 * when the DaemonSet has no --config. Undefined when neither could be read.
 */
export function currentConfig(ctx: CheckContext): KubeProxyConfiguration | undefined {
  if (ctx.kubeProxy.config !== undefined) return ctx.kubeProxy.config;
  if (ctx.kubeProxy.source?.kind !== 'flags') return undefined;
  return configFromFlags(ctx.kubeProxyFlags);
}

/**
 * Whether config-carryover shows an nftables configuration fragment: kube-proxy's configuration
 * was read and it does not run nftables yet. Remedies that point at that fragment ask this first.
 */
export function carryOverShown(ctx: CheckContext): boolean {
  return currentConfig(ctx) !== undefined && ctx.kubeProxy.mode?.effective !== 'nftables';
}

/** Values kube-proxy treats as "not set": null, "", [], {}, and zero durations such as `0s`. */
export { isUnset } from '../../core/nftables-config.js';

/** kube-proxy's env variable for its nftables kernel check; its meaning flipped in 1.33 (PR #130401). */
export const SKIP_KERNEL_CHECK = 'KUBE_PROXY_NFTABLES_SKIP_KERNEL_VERSION_CHECK';

/** The value of {@link SKIP_KERNEL_CHECK} on the kube-proxy container; undefined when unset or empty. */
export function skipKernelCheckValue(ctx: CheckContext): string | undefined {
  const ds = findKubeProxyDaemonSet(ctx.snapshot.kubeSystemDaemonSets);
  const env = ds === undefined ? undefined : kubeProxyContainer(ds)?.env;
  const value = env?.find((e) => e.name === SKIP_KERNEL_CHECK)?.value;
  return value === undefined || value === '' ? undefined : value;
}

/**
 * Whether this kube-proxy refuses a kernel below 5.13 in nftables mode (facts §1; fact-check #6-8):
 * 1.31-1.32 check only when {@link SKIP_KERNEL_CHECK} is set (nftables proxier, `!= ""`), 1.33+
 * only when it is not (supported.go, `== ""`). `unknown` when the version is not known, or is
 * older than 1.31 (no nftables mode to start).
 */
export interface KernelGuard {
  refuses: boolean | 'unknown';
  /** One sentence: what kube-proxy does on a kernel below 5.13, and why. */
  says: string;
  /** What to do about the variable, for the remedy. */
  variable: string;
}

export function kernelGuard(ctx: CheckContext): KernelGuard {
  const v = ctx.kubeProxyVersion?.version;
  const skip = skipKernelCheckValue(ctx);
  const inverted = v?.major === 1 && (v.minor === 31 || v.minor === 32);
  const fixed = v !== undefined && (v.major > 1 || (v.major === 1 && v.minor >= 33));
  const label = v === undefined ? '' : `${v.major}.${v.minor}`;
  if (inverted) {
    return skip === undefined
      ? {
          refuses: false,
          says: `kube-proxy ${label} does not refuse these kernels: its kernel check only runs when ${SKIP_KERNEL_CHECK} is set (inverted; fixed in 1.33 by PR #130401, no backport found), so it starts nftables mode on a kernel below what that mode supports, and this pre-flight is the only guard.`,
          variable: `On kube-proxy ${label}, setting ${SKIP_KERNEL_CHECK} is what turns kube-proxy's own kernel check on; remove it again when upgrading to 1.33, where it turns the check off.`,
        }
      : {
          refuses: true,
          says: `kube-proxy ${label} runs with ${SKIP_KERNEL_CHECK}=${skip}, which on this version turns its inverted kernel check on, so it fails with "requires kernel 5.13 or later" and crash-loops.`,
          variable: `Keep ${SKIP_KERNEL_CHECK} only while on kube-proxy ${label}; remove it when upgrading to 1.33, where it turns the check off.`,
        };
  }
  if (fixed) {
    return skip === undefined
      ? {
          refuses: true,
          says: `kube-proxy ${label} then fails with "requires kernel 5.13 or later" and crash-loops.`,
          variable: `Do not set ${SKIP_KERNEL_CHECK}: from 1.33 it turns kube-proxy's kernel check off without giving the host a newer kernel or nft.`,
        }
      : {
          refuses: false,
          says: `kube-proxy ${label} runs with ${SKIP_KERNEL_CHECK}=${skip}, which from 1.33 turns its kernel check off, so it starts nftables mode on a kernel below what that mode supports.`,
          variable: `Remove ${SKIP_KERNEL_CHECK} from the kube-proxy container: from 1.33 it turns the kernel check off.`,
        };
  }
  return {
    refuses: 'unknown',
    says: `Whether kube-proxy then refuses the kernel depends on its version${label === '' ? ', which could not be read' : ''}: 1.33 and later fail with "requires kernel 5.13 or later" and crash-loop, 1.31 and 1.32 check only when ${SKIP_KERNEL_CHECK} is set.`,
    variable: `${SKIP_KERNEL_CHECK} means opposite things by version: on 1.31-1.32 setting it turns kube-proxy's kernel check on, from 1.33 it turns it off.`,
  };
}

/**
 * What the IPVS cleanup leaves when nftables mode starts (fact-check #6, #27): best-effort, and since
 * PR #131243 skipped when `modprobe -va ip_vs` fails inside the container.
 */
export const IPVS_CLEANUP_CAVEAT =
  'The IPVS cleanup is best-effort on every version: since PR #131243 it is skipped silently when `modprobe -va ip_vs` fails inside the kube-proxy container, so kube-ipvs0 and the IPVS virtual servers can survive while the iptables cleanup still removes the shared KUBE-* chains, leaving a degraded node rather than a dark one; check `ipvsadm -Ln` and `ip link show kube-ipvs0` on the node either way.';
