import { describe, expect, it } from 'vitest';
import { probeContext } from '../../../src/probes/context.js';
import { nftRulesetProbe } from '../../../src/probes/nft-ruleset.js';
import { nftRulesetEmpty, nftTable } from '../../fixtures/node-outputs.js';

describe('nft-ruleset', () => {
  it('lists every table', () => {
    expect(nftRulesetProbe.argv(probeContext({}))).toEqual(['nft', '-j', 'list', 'ruleset']);
    expect(nftRulesetProbe.parse(nftRulesetEmpty)).toEqual({ version: '1.0.2', tables: [] });
    const r = nftRulesetProbe.parse(nftTable);
    expect('tables' in r && r.tables.map((t) => `${t.family} ${t.name}`)).toEqual([
      'ip kube-proxy',
    ]);
  });

  it('is an error when nft cannot list', () => {
    expect(
      nftRulesetProbe.parse({
        exitCode: 1,
        stdout: '',
        stderr: 'Error: cache initialization failed: Operation not permitted\n',
      }),
    ).toEqual({
      kind: 'probe-error',
      code: 'failed',
      message:
        'nft list ruleset exited 1: Error: cache initialization failed: Operation not permitted',
    });
  });
});
