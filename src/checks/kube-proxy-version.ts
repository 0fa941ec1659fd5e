// Risk: a kube-proxy too old for nftables mode, or whose own kernel guard is inverted (1.31-1.32).
// reference/kube-proxy-facts.md §1 (PRs #124152, #130401; nft 1.1.3 crash #136786), §10 (KEP-3866).
import { KUBE_SYSTEM } from '../core/cluster-overview.js';
import { finding, type Finding } from '../core/findings.js';
import {
  NFT_CRASH_LABEL,
  NFT_CRASH_VERSION,
  nftVersion as storedNftVersion,
} from '../core/parse/nft-version.js';
import { compareVersions, majorMinor, type Version } from '../core/parse/version.js';
import { KERNEL_COLUMNS_COMMAND, nodesBelowNftablesKernel } from './support/kernel.js';
import {
  IPVS_CLEANUP_CAVEAT,
  SKIP_KERNEL_CHECK,
  configNotRead,
  proxyReplacement,
  skipKernelCheckValue,
} from './support/kube-proxy.js';
import { clippedList } from './support/text.js';
import type { Check, CheckContext, KubeProxyVersion } from './types.js';

const ID = 'kube-proxy-version';

function versionFinding(ctx: CheckContext, kp: KubeProxyVersion): Finding {
  const scope = { kind: 'cluster', name: ctx.snapshot.cluster } as const;
  const v = kp.version;
  const label = `v${v.major}.${v.minor}.${v.patch}`;
  const skip = skipKernelCheckValue(ctx);
  const old = nodesBelowNftablesKernel(ctx);
  const nft = nftCrashNote(ctx, v);
  const oldNodes =
    old.length === 0
      ? 'No node reports a kernel below 5.13.'
      : `${old.length} node(s) report a kernel below 5.13: ${clippedList(old)}.`;
  if (compareVersions(v, { major: 1, minor: 31, patch: 0 }) < 0) {
    return finding({
      check: ID,
      severity: 'block',
      scope,
      title: `kube-proxy ${label} is too old for nftables mode (needs 1.31 or later)`,
      detail: `Read from the ${kp.evidence}. nftables mode is alpha behind the NFTablesProxyMode feature gate (off by default) in 1.29-1.30 and missing before; it is beta and on by default from 1.31 and GA in 1.33 (KEP-3866).`,
      remedy:
        'Upgrade the cluster and kube-proxy to 1.33 or later (GA, and kube-proxy refuses kernels below 5.13 there) before migrating; 1.31 is the minimum.',
      commands: [
        `kubectl -n ${KUBE_SYSTEM} get ds ${ctx.kubeProxy.daemonSet ?? 'kube-proxy'} -o jsonpath='{.spec.template.spec.containers[0].image}'`,
      ],
    });
  }
  if (compareVersions(v, { major: 1, minor: 33, patch: 0 }) < 0) {
    return finding({
      check: ID,
      severity: 'warn',
      scope,
      subjects: old,
      title:
        skip === undefined
          ? `kube-proxy ${label} does not check the kernel in nftables mode: this pre-flight is the only guard`
          : `kube-proxy ${label} checks the kernel only because ${SKIP_KERNEL_CHECK}=${skip} is set: it turns the check off from 1.33`,
      detail:
        `Read from the ${kp.evidence}. In 1.31 and 1.32 kube-proxy's kernel check is inverted: it only runs when ${SKIP_KERNEL_CHECK} is set (fixed by kubernetes/kubernetes#130401 in 1.33, no backport found).` +
        (skip === undefined
          ? ` The DaemonSet does not set it, so a node below kernel 5.13 is not refused. ${oldNodes}`
          : ` The DaemonSet sets ${SKIP_KERNEL_CHECK}=${skip}, which on this version turns the check on, so kube-proxy refuses a node below kernel 5.13 (after its IPVS cleanup); it turns the check off again after an upgrade to 1.33, so remove it then. ${oldNodes}`) +
        nft,
      remedy:
        'Upgrade kube-proxy to 1.33 or later before migrating; if you cannot, never cut over a node the kernel check of this pre-flight blocks.',
      commands: [KERNEL_COLUMNS_COMMAND],
    });
  }
  if (skip !== undefined) {
    return finding({
      check: ID,
      severity: 'warn',
      scope,
      title: `kube-proxy ${label} runs with ${SKIP_KERNEL_CHECK}=${skip}: its kernel check is off`,
      detail: `Read from the ${kp.evidence}. From 1.33 the variable skips kube-proxy's kernel 5.13 check; it does not make an old host nft work, it only hides the problem. ${oldNodes}${nft}`,
      remedy: `Remove ${SKIP_KERNEL_CHECK} from the kube-proxy container (and keep it out of the nftables canary DaemonSet).`,
      commands: [
        `kubectl -n ${KUBE_SYSTEM} set env ds/${ctx.kubeProxy.daemonSet ?? 'kube-proxy'} ${SKIP_KERNEL_CHECK}-`,
      ],
    });
  }
  return finding({
    check: ID,
    severity: 'info',
    scope,
    title: `kube-proxy ${label}: nftables mode is GA and refuses kernels below 5.13`,
    detail: `Read from the ${kp.evidence}. kube-proxy checks the kernel only after it has cleaned up the IPVS rules (platformCleanup runs first in Options.Run, cmd/kube-proxy/app/options.go), so a refused node still loses its IPVS Service routing; the kernel check of this pre-flight stays necessary. ${IPVS_CLEANUP_CAVEAT}${nft}`,
  });
}

/**
 * Whether this kube-proxy carries the fix for the host nft crash (facts §1), said only when a probed host
 * runs such an nft (the per-pool warning itself is nft-version's).
 */
function nftCrashNote(ctx: CheckContext, v: Version): string {
  const affected = ctx.snapshot.nodeFacts.filter((f) => {
    const nft = storedNftVersion(f.nftVersion ?? '');
    return nft !== undefined && compareVersions(nft, NFT_CRASH_VERSION) >= 0;
  }).length;
  if (affected === 0) return '';
  const status =
    compareVersions(v, { major: 1, minor: 33, patch: 0 }) < 0
      ? `kube-proxy ${majorMinor(v)} has no release with PR #137501 (the listing crash; cherry-picked to 1.33-1.35 only), and no ${majorMinor(v)} image with the patched nft 1.0.6.1 (kubernetes/kubernetes#140405) was found, so check \`nft --version\` inside the kube-proxy container`
      : `on kube-proxy ${majorMinor(v)} a release with PR #137501 is not enough: the image must carry the patched nft 1.0.6.1 (kubernetes/kubernetes#140405), so check \`nft --version\` inside the kube-proxy container`;
  return ` ${affected} probed node(s) run host nft ${NFT_CRASH_LABEL} or later, whose rules can make the nft in the kube-proxy image segfault while listing and while syncing (kubernetes/kubernetes#136786); ${status}. See nft-version.`;
}

export const kubeProxyVersion: Check = {
  id: ID,
  title: 'kube-proxy version supports nftables mode',
  run(ctx) {
    if (ctx.kubeProxy.daemonSet === undefined && proxyReplacement(ctx.snapshot) !== undefined) {
      return [configNotRead(ctx, ID, 'the kube-proxy version')];
    }
    const kp = ctx.kubeProxyVersion;
    const cluster =
      kp === undefined
        ? finding({
            check: ID,
            severity: 'info',
            scope: { kind: 'cluster', name: ctx.snapshot.cluster },
            title: 'Could not determine kube-proxy’s version',
            detail: `Neither the kube-proxy image (${ctx.kubeProxy.image ?? 'not found'}) nor the cluster version ("${ctx.snapshot.kubernetesVersion}") parses as a version. nftables mode needs 1.31 or later; 1.33 or later is recommended.`,
          })
        : versionFinding(ctx, kp);
    return [cluster];
  },
};
