/**
 * A node address:nodePort, dialled from the node itself and from another node: nftables answers
 * NodePorts only on nodePortAddresses (default primary), IPVS on every local address (facts §8).
 */
import type { CurlOutcome } from '../core/parse/curl.js';
import { parseTarget, targetArgv } from './curl-target.js';
import type { Probe, TargetContext } from './types.js';

export const curlNodePortProbe: Probe<CurlOutcome, TargetContext> = {
  id: 'curl-nodeport',
  describe: 'a node address:nodePort dialled with curl',
  argv: targetArgv,
  parse: parseTarget,
};
