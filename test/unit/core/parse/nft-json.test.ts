import { describe, expect, it } from 'vitest';
import { findTable, nftObjectMissing, parseNftJson } from '../../../../src/core/parse/nft-json.js';
import { nftRulesetEmpty, nftTable, nftTableMissing } from '../../../fixtures/node-outputs.js';

/** Observed on nft 1.0.6 (facts §11), one line in the original. */
const OBSERVED = `{"nftables": [{"metainfo": {"version": "1.0.6", "release_name": "Lester Gooch #5", "json_schema_version": 1}},
 {"table": {"family": "ip", "name": "kube-proxy", "handle": 1}},
 {"set": {"family": "ip", "name": "cluster-ips", "table": "kube-proxy", "type": "ipv4_addr", "handle": 1, "comment": "Active ClusterIPs", "elem": ["172.30.0.41"]}},
 {"map": {"family": "ip", "name": "service-ips", "table": "kube-proxy", "type": ["ipv4_addr", "inet_proto", "inet_service"], "handle": 3, "map": "verdict",
   "elem": [[{"concat": ["172.30.0.41", "tcp", 80]}, {"goto": {"target": "service-ULMVA6XW-ns1/svc1/tcp/p80"}}]]}},
 {"chain": {"family": "ip", "table": "kube-proxy", "name": "nat-prerouting", "handle": 6, "type": "nat", "hook": "prerouting", "prio": -100, "policy": "accept"}},
 {"rule": {"family": "ip", "table": "kube-proxy", "chain": "nat-prerouting", "handle": 7, "expr": [{"jump": {"target": "services"}}]}}]}`;

describe('parseNftJson', () => {
  it('reads sets, maps with elements and chains from an observed listing', () => {
    const result = parseNftJson(OBSERVED);
    if (!result.ok) throw new Error(result.error);
    expect(result.value.version).toBe('1.0.6');
    const table = findTable(result.value, 'ip', 'kube-proxy')!;
    expect(table.sets.get('cluster-ips')).toEqual({
      name: 'cluster-ips',
      type: 'ipv4_addr',
      elements: ['172.30.0.41'],
    });
    expect(table.maps.get('service-ips')).toEqual({
      name: 'service-ips',
      type: 'ipv4_addr . inet_proto . inet_service : verdict',
      elements: [
        { key: ['172.30.0.41', 'tcp', '80'], value: 'goto service-ULMVA6XW-ns1/svc1/tcp/p80' },
      ],
    });
    expect(table.chains.get('nat-prerouting')).toEqual({
      name: 'nat-prerouting',
      hook: 'prerouting',
      rules: 1,
    });
  });

  it('reads a whole kube-proxy table as the node prints it', () => {
    const result = parseNftJson(nftTable.stdout);
    if (!result.ok) throw new Error(result.error);
    const table = findTable(result.value, 'ip', 'kube-proxy')!;
    expect(table.sets.get('cluster-ips')?.elements).toEqual([
      '10.96.0.1',
      '10.96.0.10',
      '10.102.33.71',
    ]);
    expect(table.sets.get('nodeport-ips')?.elements).toEqual(['10.30.1.11']);
    expect(table.maps.get('service-ips')?.elements).toHaveLength(5);
    expect(table.maps.get('service-nodeports')?.elements).toEqual([
      { key: ['tcp', '30080'], value: 'goto external-SUSTUHLJ-default/web/tcp/http' },
    ]);
    // Maps without elements carry no "elem" key at all.
    expect(table.maps.get('no-endpoint-services')?.elements).toEqual([]);
    expect(table.chains.get('services')?.rules).toBe(2);
    expect(table.chains.get('filter-forward')?.hook).toBe('forward');
  });

  it('normalises prefixes, ranges and elements with comments', () => {
    const text = JSON.stringify({
      nftables: [
        { table: { family: 'ip6', name: 't', handle: 1 } },
        {
          set: {
            family: 'ip6',
            name: 's',
            table: 't',
            type: 'ipv6_addr',
            elem: [
              { prefix: { addr: 'fd00::', len: 8 } },
              { range: ['fd00::1', 'fd00::9'] },
              { elem: { val: 'fd00::a', comment: 'x' } },
            ],
          },
        },
        {
          map: {
            family: 'ip6',
            name: 'm',
            table: 't',
            type: ['ipv6_addr', 'inet_proto', 'inet_service'],
            map: 'verdict',
            elem: [
              [
                { elem: { val: { concat: ['fd00::a', 'udp', 53] }, comment: 'ns/dns:dns' } },
                { drop: null },
              ],
            ],
          },
        },
      ],
    });
    const result = parseNftJson(text);
    if (!result.ok) throw new Error(result.error);
    const table = findTable(result.value, 'ip6', 't')!;
    expect(table.sets.get('s')?.elements).toEqual(['fd00::/8', 'fd00::1-fd00::9', 'fd00::a']);
    expect(table.maps.get('m')?.elements).toEqual([
      { key: ['fd00::a', 'udp', '53'], value: 'drop' },
    ]);
  });

  it('reads an empty ruleset as no tables', () => {
    const result = parseNftJson(nftRulesetEmpty.stdout);
    expect(result).toEqual({ ok: true, value: { version: '1.0.2', tables: [] } });
  });

  it('refuses what nft does not print', () => {
    expect(parseNftJson('')).toEqual({ ok: false, error: 'nft -j: empty output' });
    expect(parseNftJson('table ip kube-proxy {').ok).toBe(false);
    expect(parseNftJson('{"tables": []}')).toEqual({
      ok: false,
      error: 'nft -j: no "nftables" array',
    });
  });

  it('knows nft’s missing-object error', () => {
    expect(nftTableMissing.exitCode).toBe(1);
    expect(nftObjectMissing(nftTableMissing.stderr)).toBe(true);
    expect(nftObjectMissing('Error: Could not process rule: Operation not permitted')).toBe(false);
  });
});
