/** A ClusterIP:port dialled from the node under test: the node's own Service path works. */
import type { CurlOutcome } from '../core/parse/curl.js';
import { parseTarget, targetArgv } from './curl-target.js';
import type { Probe, TargetContext } from './types.js';

export const curlClusterIPProbe: Probe<CurlOutcome, TargetContext> = {
  id: 'curl-clusterip',
  describe: 'a ClusterIP:port dialled from the node (curl)',
  argv: targetArgv,
  parse: parseTarget,
};
