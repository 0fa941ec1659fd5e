/** Every nftables table on the host (nft -j list ruleset): the reference before and after a move. */
import { parseNftJson, type NftRuleset } from '../core/parse/nft-json.js';
import { failed, fromParsed, toolFailure } from './common.js';
import type { Probe } from './types.js';

export const nftRulesetProbe: Probe<NftRuleset> = {
  id: 'nft-ruleset',
  describe: 'the host’s whole nftables ruleset (nft -j list ruleset)',
  argv: () => ['nft', '-j', 'list', 'ruleset'],
  parse(result) {
    const failure = toolFailure(result, 'nft');
    if (failure !== undefined) return failure;
    if (result.exitCode !== 0) return failed(result, 'nft list ruleset');
    return fromParsed(parseNftJson(result.stdout));
  },
};
