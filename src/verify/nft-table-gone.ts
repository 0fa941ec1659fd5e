/**
 * After a rollback kube-proxy's nftables tables must be gone or empty: IPVS kube-proxy deletes
 * them at start (platformCleanup → nftables.CleanupLeftovers, facts §6; KEP-3866's manual
 * cleanup is `nft delete table ip kube-proxy` and `ip6`).
 */
import type { Evidence } from '../core/run-state.js';
import { evidence, readable } from './evidence.js';
import type { CommonVerifyInput, Verification } from './types.js';

type Input = Pick<CommonVerifyInput, 'node' | 'step' | 'now' | 'reads'>;

function judge(input: Input, family: 'ip' | 'ip6'): Evidence {
  const id = family === 'ip' ? 'nft-table-gone' : 'nft-table-ip6-gone';
  const label = `table ${family} kube-proxy`;
  const got = readable(
    input,
    id,
    input.reads[family === 'ip' ? 'nft-table' : 'nft-table-ip6'],
    label,
  );
  if (!got.ok) return got.evidence;
  const { read, value } = got;
  if (!value.present)
    return evidence(input, id, read, true, `expected no ${label}; nft says it does not exist`);
  const { sets, maps, chains } = value.table;
  const objects = sets.size + maps.size + chains.size;
  if (objects === 0) return evidence(input, id, read, true, `${label} is left but empty`);
  return evidence(
    input,
    id,
    read,
    false,
    `expected no ${label}; it still holds ${chains.size} chains, ${sets.size} sets and ${maps.size} maps: the IPVS kube-proxy's startup cleanup did not remove it; remove it with \`nft delete table ${family} kube-proxy\``,
  );
}

export const nftTableGoneVerification: Verification<Input> = {
  id: 'nft-table-gone',
  title: 'kube-proxy’s nftables tables removed',
  verify: (input) => [judge(input, 'ip'), judge(input, 'ip6')],
};
