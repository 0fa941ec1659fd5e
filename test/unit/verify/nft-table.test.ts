import { describe, expect, it } from 'vitest';
import { nftTableVerification } from '../../../src/verify/nft-table.js';
import { expectedServices } from '../../../src/verify/expected.js';
import * as out from '../../fixtures/node-outputs.js';
import { nftablesInput, read, services } from './inputs.js';

const verdicts = (input: ReturnType<typeof nftablesInput>) =>
  nftTableVerification.verify(input).map((e) => [e.probe, e.ok, e.verdict]);

describe('nft-table', () => {
  it('passes when every ClusterIP and port is in the table', () => {
    expect(verdicts(nftablesInput())).toEqual([
      [
        'nft-table',
        true,
        'table ip kube-proxy holds all 3 ClusterIPs (cluster-ips) and all 5 Service ports (service-ips, no-endpoint-services)',
      ],
    ]);
  });

  it('fails and names what is missing when a Service is not programmed', () => {
    const extra = {
      metadata: { name: 'late', namespace: 'shop' },
      spec: { type: 'ClusterIP', clusterIP: '10.96.5.5', ports: [{ port: 8080, protocol: 'TCP' }] },
    };
    const input = {
      ...nftablesInput(),
      expected: expectedServices([...services('nftables-done'), extra]),
    };
    expect(verdicts(input)).toEqual([
      [
        'nft-table',
        false,
        'expected every Service in table ip kube-proxy; 1 of 4 ClusterIPs missing from cluster-ips: 10.96.5.5 (shop/late); 1 of 6 Service ports missing from service-ips: 10.96.5.5 tcp 8080 (shop/late)',
      ],
    ]);
  });

  it('fails when the table is missing or lacks kube-proxy’s objects', () => {
    const missing = { ...nftablesInput() };
    missing.reads = { ...missing.reads, 'nft-table': read('nft-table', out.nftTableMissing) };
    expect(verdicts(missing)[0]?.[1]).toBe(false);
    expect(verdicts(missing)[0]?.[2]).toContain('does not exist');
    const bare = { ...nftablesInput() };
    bare.reads = {
      ...bare.reads,
      'nft-table': read('nft-table', {
        exitCode: 0,
        stdout: '{"nftables": [{"table": {"family": "ip", "name": "kube-proxy", "handle": 1}}]}',
        stderr: '',
      }),
    };
    expect(verdicts(bare)[0]?.[2]).toBe(
      'expected table ip kube-proxy with chain services, map service-ips and set cluster-ips; missing chain services, map service-ips, set cluster-ips',
    );
  });

  it('judges the ip6 table when there are IPv6 ClusterIPs', () => {
    const dual = {
      metadata: { name: 'dual', namespace: 'default' },
      spec: { clusterIPs: ['10.96.7.7', 'fd00:10:96::7'], ports: [{ port: 80 }] },
    };
    const input = {
      ...nftablesInput(),
      expected: expectedServices([...services('nftables-done'), dual]),
    };
    const found = nftTableVerification.verify(input);
    expect(found.map((e) => [e.probe, e.ok])).toEqual([
      ['nft-table', false],
      ['nft-table-ip6', false],
    ]);
    expect(found[1]?.verdict).toContain('fd00:10:96::7 (default/dual)');
  });

  it('is unknown, so failed, when nft could not be read', () => {
    const input = { ...nftablesInput() };
    input.reads = {
      ...input.reads,
      'nft-table': read('nft-table', {
        exitCode: 127,
        stdout: '',
        stderr: 'nft: command not found\n',
      }),
    };
    expect(verdicts(input)).toEqual([
      [
        'nft-table',
        false,
        'could not read table ip kube-proxy: nft is not in the probe image (exit 127: nft: command not found)',
      ],
    ]);
    const { 'nft-table': _gone, ...rest } = input.reads;
    expect(verdicts({ ...input, reads: rest })).toEqual([
      ['nft-table', false, 'table ip kube-proxy was not read: unknown'],
    ]);
  });
});
