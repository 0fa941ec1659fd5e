import { describe, expect, it } from 'vitest';
import { hashAndTruncate } from '../../../../src/node/nft/names.js';
import { priorityText } from '../../../../src/node/nft/render.js';
import { cluster, configText, service, sh, slice, startAll, t0 } from '../fixtures.js';

type Obj = Record<string, Record<string, unknown>>;

function nftJson(line: string, version = 'v1.33.4', conf = configText('nftables')): Obj[] {
  const m = cluster();
  m.resync(
    [
      service('web', '10.96.10.10', 80),
      service('web-nodeport', '10.96.20.20', 80, { nodePort: 31080 }),
      service('kube-dns', '10.96.0.10', 53, {
        ns: 'kube-system',
        portName: 'dns',
        protocol: 'UDP',
      }),
      service('empty', '10.96.30.30', 8080, { portName: '' }),
    ],
    [
      slice('web', [
        { ip: '10.244.1.5', node: 'a' },
        { ip: '10.244.2.5', node: 'b' },
      ]),
      slice('web-nodeport', [{ ip: '10.244.1.5', node: 'a' }]),
      slice('kube-dns', [{ ip: '10.244.1.2', node: 'a' }], {
        ns: 'kube-system',
        portName: 'dns',
        port: 53,
        protocol: 'UDP',
      }),
    ],
    t0,
  );
  startAll(m, ['a'], conf, { version });
  const r = sh(m, 'a', line);
  expect(r.exitCode).toBe(0);
  expect(r.stdout.endsWith('}\n')).toBe(true);
  return (JSON.parse(r.stdout) as { nftables: Obj[] }).nftables;
}

describe('nftables ruleset', () => {
  it('names chains like kube-proxy (hashAndTruncate)', () => {
    expect(hashAndTruncate('ns1/svc1/tcp/p80')).toBe('ULMVA6XW-ns1/svc1/tcp/p80');
    expect(hashAndTruncate('ns1/svc1/tcp/p80__10.180.0.1/80')).toBe(
      '5OJB2KTY-ns1/svc1/tcp/p80__10.180.0.1/80',
    );
  });

  it('nft -j list table ip kube-proxy: metainfo first, then table, sets, maps, chains, rules', () => {
    const objs = nftJson('nft -j list table ip kube-proxy');
    expect(objs[0]).toEqual({
      metainfo: { version: '1.0.6', release_name: 'Lester Gooch #5', json_schema_version: 1 },
    });
    expect(objs[1]).toEqual({ table: { family: 'ip', name: 'kube-proxy', handle: 1 } });
    const kinds = objs.slice(1).map((o) => Object.keys(o)[0]);
    const order = ['table', 'set', 'map', 'chain', 'rule'];
    expect([...kinds].sort((x, y) => order.indexOf(x ?? '') - order.indexOf(y ?? ''))).toEqual(
      kinds,
    );
    const sets = objs.filter((o) => o['set']).map((o) => o['set']);
    expect(sets[0]).toEqual({
      family: 'ip',
      name: 'cluster-ips',
      table: 'kube-proxy',
      type: 'ipv4_addr',
      handle: 1,
      comment: 'Active ClusterIPs',
      elem: ['10.96.0.10', '10.96.10.10', '10.96.20.20', '10.96.30.30'],
    });
    expect(sets[1]).toMatchObject({ name: 'nodeport-ips', elem: ['10.0.1.11'] });
    const maps: Record<string, Record<string, unknown>> = {};
    for (const o of objs) if (o['map']) maps[String(o['map']['name'])] = o['map'];
    expect(Object.keys(maps)).toEqual([
      'no-endpoint-services',
      'no-endpoint-nodeports',
      'firewall-ips',
      'service-ips',
      'service-nodeports',
    ]);
    // One element per Service port with endpoints.
    expect(maps['service-ips']?.['elem']).toEqual([
      [
        { concat: ['10.96.0.10', 'udp', 53] },
        { goto: { target: 'service-FY5PMXPG-kube-system/kube-dns/udp/dns' } },
      ],
      [
        { concat: ['10.96.10.10', 'tcp', 80] },
        { goto: { target: `service-${hashAndTruncate('default/web/tcp/http')}` } },
      ],
      [
        { concat: ['10.96.20.20', 'tcp', 80] },
        { goto: { target: `service-${hashAndTruncate('default/web-nodeport/tcp/http')}` } },
      ],
    ]);
    expect(maps['service-ips']).toMatchObject({
      type: ['ipv4_addr', 'inet_proto', 'inet_service'],
      map: 'verdict',
    });
    expect(maps['no-endpoint-services']?.['elem']).toEqual([
      [
        { elem: { val: { concat: ['10.96.30.30', 'tcp', 8080] }, comment: 'default/empty' } },
        { goto: { target: 'reject-chain' } },
      ],
    ]);
    expect(maps['service-nodeports']?.['elem']).toEqual([
      [
        { concat: ['tcp', 31080] },
        { goto: { target: `external-${hashAndTruncate('default/web-nodeport/tcp/http')}` } },
      ],
    ]);
    const chains = objs.filter((o) => o['chain']).map((o) => o['chain']);
    expect(chains.find((c) => c?.['name'] === 'nat-prerouting')).toMatchObject({
      type: 'nat',
      hook: 'prerouting',
      prio: -100,
      policy: 'accept',
    });
    for (const name of [
      'services',
      'masquerading',
      'mark-for-masquerade',
      'service-endpoints-check',
      'nodeport-endpoints-check',
      'cluster-ips-check',
      'reject-chain',
      'firewall-check',
    ])
      expect(chains.some((c) => c?.['name'] === name)).toBe(true);
    expect(
      chains.some(
        (c) =>
          c?.['name'] === `endpoint-${hashAndTruncate('default/web/tcp/http__10.244.2.5/8080')}`,
      ),
    ).toBe(true);
    const rule = objs.find((o) => o['rule']?.['chain'] === 'nat-prerouting')?.['rule'];
    expect(rule?.['expr']).toEqual([{ jump: { target: 'services' } }]);
    const services = objs
      .filter((o) => o['rule']?.['chain'] === 'services')
      .map((o) => o['rule']?.['expr']);
    expect(services[0]).toEqual([
      {
        vmap: {
          key: {
            concat: [
              { payload: { protocol: 'ip', field: 'daddr' } },
              { meta: { key: 'l4proto' } },
              { payload: { protocol: 'th', field: 'dport' } },
            ],
          },
          data: '@service-ips',
        },
      },
    ]);
  });

  it('nodePortAddresses matching everything drops nodeport-ips and uses fib daddr type local', () => {
    const objs = nftJson(
      'nft -j list table ip kube-proxy',
      'v1.33.4',
      configText('nftables', 'nodePortAddresses: ["0.0.0.0/0"]\n'),
    );
    expect(objs.some((o) => o['set']?.['name'] === 'nodeport-ips')).toBe(false);
    const m = cluster();
    startAll(m, ['a'], configText('nftables', 'nodePortAddresses: ["0.0.0.0/0"]\n'));
    const text = sh(m, 'a', 'nft list chain ip kube-proxy services').stdout;
    expect(text).toBe(
      'table ip kube-proxy {\n\tchain services {\n\t\tip daddr . meta l4proto . th dport vmap @service-ips\n\t\tfib daddr type local ip daddr != 127.0.0.0/8 meta l4proto . th dport vmap @service-nodeports\n\t}\n}\n',
    );
  });

  it('uses the base-chain layout of the release', () => {
    const names = (v: string) =>
      nftJson('nft -j list table ip kube-proxy', v)
        .filter((o) => o['chain']?.['hook'] !== undefined)
        .map((o) => `${String(o['chain']?.['name'])}@${String(o['chain']?.['prio'])}`);
    expect(names('v1.33.4')).toContain('filter-output-post-dnat@-90');
    expect(names('v1.36.2')).toEqual([
      'filter-prerouting-pre-dnat@-110',
      'filter-output-pre-dnat@-110',
      'filter-input@0',
      'filter-forward@0',
      'filter-output@0',
      'nat-prerouting@-100',
      'nat-output@-100',
      'nat-postrouting@100',
    ]);
  });

  it('prints priorities with nft standard names', () => {
    expect(priorityText(-110, 'prerouting')).toBe('dstnat - 10');
    expect(priorityText(-110, 'input')).toBe('-110');
    expect(priorityText(-90, 'output')).toBe('dstnat + 10');
    expect(priorityText(0, 'forward')).toBe('filter');
    expect(priorityText(100, 'postrouting')).toBe('srcnat');
  });

  it('nft list text: sets, maps and chains with real syntax', () => {
    const m = cluster();
    startAll(m, ['a'], configText('nftables'));
    const text = sh(m, 'a', 'nft list table ip kube-proxy').stdout;
    expect(
      text.startsWith(
        'table ip kube-proxy {\n\tcomment "rules for kube-proxy"\n\tset cluster-ips {\n\t\ttype ipv4_addr\n',
      ),
    ).toBe(true);
    expect(text).toContain('\t\telements = { 10.96.10.10 . tcp . 80 : goto service-');
    expect(text).toContain(
      '\tchain nat-prerouting {\n\t\ttype nat hook prerouting priority dstnat; policy accept;\n\t\tjump services\n\t}\n',
    );
    expect(text).toContain(
      '\tchain mark-for-masquerade {\n\t\tmeta mark set meta mark | 0x00004000\n\t}\n',
    );
    expect(text).toContain('\t\tmeta mark & 0x00004000 == 0x00000000 return\n');
    expect(text).toMatch(
      /\t\tip daddr 10\.96\.10\.10 tcp dport 80 ip saddr != 10\.244\.0\.0\/16 jump mark-for-masquerade\n\t\tnumgen random mod 2 vmap \{ 0 : goto endpoint-\S+, 1 : goto endpoint-\S+ \}\n/,
    );
    expect(text).toContain('\t\tmeta l4proto tcp dnat to 10.244.2.5:8080\n');
    expect(sh(m, 'a', 'nft list ruleset').stdout).toContain('table ip6 kube-proxy {');
  });

  it('nft -j list ruleset: one metainfo, then every table, ip before ip6, each grouped', () => {
    const ruleset = nftJson('nft -j list ruleset');
    const ip = nftJson('nft -j list table ip kube-proxy');
    const ip6 = nftJson('nft -j list table ip6 kube-proxy');
    expect(ruleset[0]).toEqual(ip[0]);
    expect(ruleset.filter((o) => 'metainfo' in o)).toHaveLength(1);
    expect(ruleset.slice(1)).toEqual([...ip.slice(1), ...ip6.slice(1)]);
    expect(ruleset.filter((o) => 'table' in o)).toEqual([
      { table: { family: 'ip', name: 'kube-proxy', handle: 1 } },
      { table: { family: 'ip6', name: 'kube-proxy', handle: 2 } },
    ]);
  });

  it('a missing table fails like nft', () => {
    const m = cluster();
    expect(sh(m, 'a', 'nft -j list table ip kube-proxy')).toEqual({
      exitCode: 1,
      stdout: '',
      stderr:
        'Error: No such file or directory\nlist table ip kube-proxy\n              ^^^^^^^^^^\n',
    });
    expect(sh(m, 'a', 'nft list table ip6 kube-proxy').stderr).toBe(
      'Error: No such file or directory\nlist table ip6 kube-proxy\n               ^^^^^^^^^^\n',
    );
    expect(sh(m, 'a', 'nft list ruleset')).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect(JSON.parse(sh(m, 'a', 'nft -j list ruleset').stdout)).toEqual({
      nftables: [
        { metainfo: { version: '1.0.6', release_name: 'Lester Gooch #5', json_schema_version: 1 } },
      ],
    });
    expect(sh(m, 'a', 'nft --version').stdout).toBe('nftables v1.0.6 (Lester Gooch #5)\n');
  });
});
