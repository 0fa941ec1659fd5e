/**
 * Guards against a host nft that breaks next to kube-proxy's rules: older than 1.0.1 (0.9.8 and
 * older become unusable), or 1.1.3 and later (its udata crashes older nft builds in the kube-proxy
 * image). kube-proxy runs the nft in its own image, so a host without nft needs nothing installed
 * (facts §1, §11; shared/reference/preflight-factcheck.md #20-23; playbook 003 steps 1–2).
 */
import type { Finding } from '../core/findings.js';
import {
  NFT_CRASH_LABEL,
  NFT_CRASH_NOTE,
  NFT_CRASH_VERSION,
  nftVersion as storedNftVersion,
} from '../core/parse/nft-version.js';
import { compareVersions } from '../core/parse/version.js';
import {
  countNodes,
  entriesOf,
  perPool,
  poolFinding,
  poolParts,
  probesSkipped,
  subGroup,
  type PoolGroup,
} from './group.js';
import { probeProblem } from './support/probe.js';
import { evidenceList, nameList } from './support/text.js';
import type { Check, CheckContext } from './types.js';

export const NFT_MIN_VERSION = { major: 1, minor: 0, patch: 1 } as const;

/** Host nft up to this one "will become completely unusable" next to kube-proxy's rules (pkg/proxy/nftables). */
export const NFT_UNUSABLE_MAX = { major: 0, minor: 9, patch: 8 } as const;

type Category = 'old' | 'missing' | 'unparseable' | 'unprobed' | 'crash';

interface NodeNft {
  node: string;
  category: Category;
  /** The version string as probed, or why there is none. */
  evidence: string;
}

function classify(ctx: CheckContext, node: string): NodeNft | undefined {
  const facts = ctx.factsOf(node);
  if (facts === undefined) return { node, category: 'unprobed', evidence: 'not probed' };
  if (facts.hostNftMissing === true && facts.nftVersion === undefined)
    return { node, category: 'missing', evidence: 'nft is not installed on the host' };
  const raw = facts.nftVersion?.trim();
  if (raw === undefined || raw === '') {
    const problem = probeProblem(facts, ['nft']) ?? 'the probe returned no nft version';
    return { node, category: 'missing', evidence: problem };
  }
  const version = storedNftVersion(raw);
  if (version === undefined) return { node, category: 'unparseable', evidence: `"${raw}"` };
  if (compareVersions(version, NFT_MIN_VERSION) < 0) {
    const unusable = compareVersions(version, NFT_UNUSABLE_MAX) <= 0;
    return {
      node,
      category: 'old',
      evidence: `nft ${raw}${unusable ? ' (0.9.8 or older: unusable next to kube-proxy’s rules)' : ''}`,
    };
  }
  if (compareVersions(version, NFT_CRASH_VERSION) >= 0)
    return { node, category: 'crash', evidence: `nft ${raw}` };
  return undefined;
}

function listed(nodes: readonly NodeNft[]): string {
  return evidenceList(nodes, (n) => `${n.node}: ${n.evidence}`);
}

const UPGRADE =
  'Upgrade the host nftables package to 1.0.1 or later (`apt install nftables` on Debian/Ubuntu, `dnf install nftables` on RHEL-family), or move these nodes to a newer node image, before cutting them over; kube-proxy itself does not use the host nft.';

/** Where the nft kube-proxy really runs is read (the image's, not the host's). */
const IMAGE_NFT = 'kubectl -n kube-system exec ds/kube-proxy -- nft --version';

function nftFinding(group: PoolGroup, byNode: Map<string, NodeNft>): Finding {
  const entries = entriesOf(group, byNode);
  const of = (category: Category) => entries.filter((e) => e.category === category);
  const old = of('old');
  const missing = of('missing');
  const unparseable = of('unparseable');
  const unprobed = of('unprobed');
  const crash = of('crash');

  const parts = poolParts();
  const { titles, details, remedies } = parts;
  if (old.length > 0) {
    titles.push(`${countNodes(subGroup(group, old))} on host nft < 1.0.1`);
    details.push(
      `kube-proxy assumes the host's nft is 1.0.1 or later (its kernel 5.13 floor stands in for that), and the host nft shares the kernel's ruleset with kube-proxy's table: with host nft 0.9.8 or older "the system nft will become completely unusable" once kube-proxy's rules exist (comment in kubernetes/kubernetes pkg/proxy/nftables), which breaks firewalld, the distro's nftables service and every host-side nft list, the cut-over verification included; 0.9.9 and 1.0.0 are below what kube-proxy assumes. Evidence: ${listed(old)}.`,
    );
    remedies.push(UPGRADE);
  }
  if (missing.length > 0) {
    titles.push(
      `no host nft on ${countNodes(subGroup(group, missing))} (kube-proxy does not need it)`,
    );
    details.push(
      `nft --version did not run on the host: ${listed(missing)}. kube-proxy uses the nft in its own image, so nothing needs installing (Bottlerocket and other minimal images ship none); it only means kube-proxy's rules cannot be inspected from the host, so look at them through the kube-proxy container (\`${IMAGE_NFT.replace('--version', 'list table ip kube-proxy')}\`).`,
    );
  }
  if (unparseable.length > 0) {
    titles.push(`unreadable nft version on ${countNodes(subGroup(group, unparseable))}`);
    details.push(`No version could be read from nft --version: ${listed(unparseable)}.`);
  }
  if (unprobed.length > 0) {
    titles.push(`${countNodes(subGroup(group, unprobed))} not probed`);
    details.push(
      `The node probe did not run on ${nameList(unprobed.map((n) => n.node))}, so their host nft is unknown.`,
    );
  }
  if (unparseable.length + unprobed.length > 0) {
    remedies.push('Run `nft --version` on those hosts by hand and rerun pre-flight.');
  }
  if (crash.length > 0) {
    titles.push(`${countNodes(subGroup(group, crash))} on host nft ${NFT_CRASH_LABEL} or later`);
    details.push(`${NFT_CRASH_NOTE} Evidence: ${listed(crash)}.`);
    remedies.push(
      `Check the nft in the kube-proxy image you cut over to (\`${IMAGE_NFT}\` should print v1.0.6.1 or later: an image built after kubernetes/kubernetes#140405), or keep the hosts below nft ${NFT_CRASH_LABEL}; a kube-proxy release with PR #137501 alone is not enough. When unsure, cut one node of this pool over first and watch kube-proxy's log for segfaults and failed syncs.`,
    );
  }
  details.push(
    'kube-proxy runs the nft inside its own image, not the host’s: knftables checks that one (nft --version, refusing "nftables v0." and "v1.0.0", then an nft --check dry run).',
  );

  const severity =
    old.length > 0
      ? 'block'
      : unparseable.length + unprobed.length + crash.length > 0
        ? 'warn'
        : 'info';
  return poolFinding(nftVersion.id, severity, group, parts, [
    'nft --version',
    ...(old.length > 0 ? ['apt install nftables', 'dnf install nftables'] : []),
    IMAGE_NFT,
  ]);
}

export const nftVersion: Check = {
  id: 'nft-version',
  title: 'No host nft that breaks next to kube-proxy’s rules',
  run(ctx) {
    if (ctx.snapshot.nodes.length === 0) return [];
    const skipped = probesSkipped(ctx, nftVersion.id, {
      what: 'Host nft not checked',
      detail:
        'kube-proxy uses the nft in its own image, but a host nft older than 1.0.1 (0.9.8 or older becomes unusable) or 1.1.3 and later breaks next to its rules; the Node objects do not show it. Check it on each host before its cut-over (no nft on the host is fine).',
      commands: ['nft --version'],
    });
    if (skipped !== undefined) return [skipped];
    const byNode = new Map<string, NodeNft>();
    for (const node of ctx.snapshot.nodes) {
      const entry = classify(ctx, node.metadata.name);
      if (entry !== undefined) byNode.set(entry.node, entry);
    }
    return perPool(ctx, [...byNode.keys()], (group) => nftFinding(group, byNode));
  },
};
