/**
 * Pre-flight's host facts for one node from its probe reads, so pre-flight and a cutover's node
 * pre-flight read the same probes the same way. A failed read becomes an error on the node
 * (the check then says which fact is unknown and why), never a guessed value.
 */
import { hostOwnAddresses } from '../core/host-addresses.js';
import type { NodeFacts } from '../core/snapshot.js';
import { invalidPerCpu } from '../core/parse/conntrack.js';
import type { ProbeReads } from './index.js';
import { valueOf, type ProbeRead } from './read.js';
import { isProbeError, type ProbeErrorCode } from './types.js';

/** The codes NodeFacts has always carried (errors.ts): a timeout, or any other failure. */
function nodeCode(code: ProbeErrorCode): string {
  return code === 'timed-out' ? 'NODE_PROBE_TIMEOUT' : 'NODE_PROBE_FAILED';
}

export function nodeFactsFrom(node: string, reads: ProbeReads): NodeFacts {
  const facts: NodeFacts = { node, errors: [] };
  const fail = (read: ProbeRead<unknown> | undefined): void => {
    if (read !== undefined && isProbeError(read.value))
      facts.errors.push({
        probe: read.probe,
        code: nodeCode(read.value.code),
        message: read.value.message,
      });
  };
  const kernel = valueOf(reads['uname-r']);
  if (kernel !== undefined) facts.kernel = kernel;
  else fail(reads['uname-r']);
  const nft = valueOf(reads['nft-version']);
  if (nft !== undefined) facts.nftVersion = nft;
  else fail(reads['nft-version']);

  const stats = valueOf(reads['conntrack-stats']);
  const count = valueOf(reads['sysctl-conntrack-count']);
  const max = valueOf(reads['sysctl-conntrack-max']);
  if (stats !== undefined)
    facts.conntrack = {
      invalidPerCpu: invalidPerCpu(stats),
      ...(count === undefined ? {} : { count }),
      ...(max === undefined ? {} : { max }),
    };
  for (const id of ['conntrack-stats', 'sysctl-conntrack-count', 'sysctl-conntrack-max'] as const)
    fail(reads[id]);

  const links = valueOf(reads['host-addresses']);
  if (links !== undefined) facts.addresses = hostOwnAddresses(links);
  else fail(reads['host-addresses']);

  // Loopback first; the node-IP variant only matters when loopback did not answer.
  const mode = valueOf(reads['proxy-mode']) ?? valueOf(reads['proxy-mode-node-ip']);
  if (mode !== undefined) facts.proxyMode = mode;
  else {
    fail(reads['proxy-mode']);
    fail(reads['proxy-mode-node-ip']);
  }
  return facts;
}
