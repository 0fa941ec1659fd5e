// What the netfilter and IPVS tools print when the process lacks CAP_NET_ADMIN (a container
// without `capabilities.add: [NET_ADMIN]` or `privileged: true`): the kernel answers EPERM to
// their netlink or sockopt calls, and each tool words that its own way.

import { hasCapability } from '../container/process.js';
import type { CommandContext, CommandResult } from './types.js';
import { fail, nodeState } from './types.js';

/** nft 1.0.x: mnl's EPERM hint, then the cache error of the first netlink dump (src/cache.c). */
const nftDenied =
  'Operation not permitted (you must be root)\nnetlink: Error: cache initialization failed: Operation not permitted\n';

/** ipvsadm.c main(): ipvs_init() fails, libipvs ipvs_strerror(EPERM). */
const ipvsadmDenied =
  "Can't initialize ipvs: Permission denied (you must be root)\nAre you sure that IP Virtual Server is built in the kernel or as module?\n";

/** conntrack-tools 1.4.7: exit_error(OTHER_PROBLEM, "Operation failed: %s", err2str(EPERM)). */
const conntrackDenied =
  'conntrack v1.4.7 (conntrack-tools): Operation failed: sorry, you must be root or get CAP_NET_ADMIN capability to do this\n';

/** The iptables in the images the twin models (Debian bookworm, distroless-iptables). */
const iptablesVersion = '1.8.9';

const iptablesNames = new Set([
  'iptables',
  'iptables-save',
  'ip6tables',
  'ip6tables-save',
  'iptables-nft',
  'iptables-nft-save',
  'ip6tables-nft',
  'ip6tables-nft-save',
]);

function nftNeedsNetlink(args: readonly string[]): boolean {
  if (args.some((a) => a === '-v' || a === '--version' || a === '-V')) return false;
  return args.some((a) => !a.startsWith('-'));
}

function conntrackNeedsNetlink(args: readonly string[]): boolean {
  const first = args[0] ?? '';
  return !['', '-C', '--count', '-V', '--version', '-h', '--help'].includes(first);
}

function ipWrites(args: readonly string[]): boolean {
  const words = args.filter((a) => !a.startsWith('-'));
  return ['add', 'del', 'delete', 'set', 'change', 'replace', 'flush'].includes(words[1] ?? '');
}

/** The tool's own EPERM failure, or undefined when the command may run. */
export function permissionDenied(
  ctx: CommandContext,
  name: string,
  args: readonly string[],
): CommandResult | undefined {
  if (hasCapability(ctx.container, 'NET_ADMIN')) return undefined;
  switch (name) {
    case 'nft':
      return nftNeedsNetlink(args) ? fail(1, nftDenied) : undefined;
    case 'ipvsadm': {
      // Without ip_vs the sockopt is not registered (ENOPROTOOPT) unless the raw socket itself
      // is refused; the handler prints that case.
      const loaded = nodeState(ctx).dataplane.ipvsModuleLoaded;
      return loaded || !hasCapability(ctx.container, 'NET_RAW')
        ? fail(2, ipvsadmDenied)
        : undefined;
    }
    case 'conntrack':
      return conntrackNeedsNetlink(args) ? fail(1, conntrackDenied) : undefined;
    case 'ip':
      return ipWrites(args) ? fail(2, 'RTNETLINK answers: Operation not permitted\n') : undefined;
    default:
      if (!iptablesNames.has(name)) return undefined;
      // iptables/nft-cache.c mnl_genid_get: xtables_error(RESOURCE_PROBLEM, …).
      return fail(
        4,
        `${name.replace('-nft', '')} v${iptablesVersion} (nf_tables): Could not fetch rule set generation id: Permission denied (you must be root)\n`,
      );
  }
}
