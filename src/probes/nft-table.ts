/**
 * kube-proxy's nftables tables (`table ip kube-proxy`, `table ip6 kube-proxy`; facts §5), listed
 * with their elements (not --terse), so the verifier can find every ClusterIP in `cluster-ips`
 * and `service-ips`. A missing table is an answer (absent), not an error: after a rollback it is
 * what should be seen.
 */
import {
  findTable,
  nftObjectMissing,
  parseNftJson,
  type NftTable,
} from '../core/parse/nft-json.js';
import { failed, fromParsed, toolFailure } from './common.js';
import { isProbeError, probeError, type Probe } from './types.js';

export type NftTableRead = { present: false } | { present: true; table: NftTable };

function tableProbe(family: 'ip' | 'ip6'): Probe<NftTableRead> {
  return {
    id: family === 'ip' ? 'nft-table' : 'nft-table-ip6',
    describe: `kube-proxy’s nftables table (nft -j list table ${family} kube-proxy)`,
    argv: () => ['nft', '-j', 'list', 'table', family, 'kube-proxy'],
    parse(result) {
      const failure = toolFailure(result, 'nft');
      if (failure !== undefined) return failure;
      if (result.exitCode !== 0)
        return nftObjectMissing(result.stderr)
          ? { present: false }
          : failed(result, 'nft list table');
      const ruleset = fromParsed(parseNftJson(result.stdout));
      if (isProbeError(ruleset)) return ruleset;
      const table = findTable(ruleset, family, 'kube-proxy');
      return table === undefined
        ? probeError('unparsable', `nft listed no table ${family} kube-proxy despite exit 0`)
        : { present: true, table };
    },
  };
}

export const nftTableProbe = tableProbe('ip');
export const nftTableIp6Probe = tableProbe('ip6');
