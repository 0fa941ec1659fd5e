/**
 * Guards against cutting over a node whose nftables userspace is missing or older than nft 1.0.1
 * (facts §1, §11; playbook 003 "rolling sequence" steps 1–2, playbook 000 trap 5).
 */
import type { Finding } from '../core/findings.js';
import {
  NFT_CRASH_LABEL,
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
  const raw = facts.nftVersion?.trim();
  if (raw === undefined || raw === '') {
    const problem = probeProblem(facts, ['nft']) ?? 'the probe returned no nft version';
    return { node, category: 'missing', evidence: problem };
  }
  const version = storedNftVersion(raw);
  if (version === undefined) return { node, category: 'unparseable', evidence: `"${raw}"` };
  if (compareVersions(version, NFT_MIN_VERSION) < 0)
    return { node, category: 'old', evidence: `nft ${raw}` };
  if (compareVersions(version, NFT_CRASH_VERSION) >= 0)
    return { node, category: 'crash', evidence: `nft ${raw}` };
  return undefined;
}

function listed(nodes: readonly NodeNft[]): string {
  return evidenceList(nodes, (n) => `${n.node}: ${n.evidence}`);
}

const INSTALL =
  'Install or upgrade nftables on the host to 1.0.1 or later (`apt install nftables` on Debian/Ubuntu, `dnf install nftables` on RHEL-family) before cutting these nodes over.';

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
      `nftables mode needs nft 1.0.1 or later (knftables refuses "nftables v0." and "v1.0.0"); the kernel 5.13 floor is kube-proxy's stand-in for a new enough host nft, and host tools (nft list, the cut-over verification) cannot read kube-proxy's table with an older one. Evidence: ${listed(old)}.`,
    );
    remedies.push(INSTALL);
  }
  if (missing.length > 0) {
    titles.push(`nft missing or not runnable on ${countNodes(subGroup(group, missing))}`);
    details.push(`nft --version failed or printed nothing: ${listed(missing)}.`);
    if (old.length === 0) remedies.push(INSTALL);
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
    details.push(
      `With nft ${NFT_CRASH_LABEL} or later on the host, kube-proxy's nft could crash while listing its table (kubernetes/kubernetes#136786); fixed by PR #137501, cherry-picked to 1.33, 1.34 and 1.35 in March 2026. Evidence: ${listed(crash)}.`,
    );
    remedies.push(
      `Make sure the kube-proxy image you cut over to contains PR #137501 (a March 2026 or later patch release), or keep the hosts below nft ${NFT_CRASH_LABEL}; the kube-proxy-version finding says whether your kube-proxy has the fix.`,
    );
  }
  details.push(
    'kube-proxy also checks the nft inside its own container (nft --version, then an nft --check dry run); that one ships with the kube-proxy image.',
  );

  return poolFinding(nftVersion.id, old.length > 0 ? 'block' : 'warn', group, parts, [
    'nft --version',
    'apt install nftables',
    'dnf install nftables',
    'kubectl -n kube-system exec ds/kube-proxy -- nft --version',
  ]);
}

export const nftVersion: Check = {
  id: 'nft-version',
  title: 'Every node has nft 1.0.1 or later',
  run(ctx) {
    if (ctx.snapshot.nodes.length === 0) return [];
    const skipped = probesSkipped(ctx, nftVersion.id, {
      what: 'Host nft not checked',
      detail:
        'nftables mode needs nft 1.0.1 or later; the Node objects do not show it. Check it on each host before its cut-over.',
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
