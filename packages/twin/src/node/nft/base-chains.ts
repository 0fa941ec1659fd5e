// The fixed part of kube-proxy's nftables table (setupNFTables): base chains for the release,
// the jump chains, masquerading, the reject helper and the dispatch rules. Releases before v1.35
// use filter-* chains at priority -110 plus filter-output-post-dnat; v1.35+ (layout confirmed in
// v1.36) use filter-*-pre-dnat at -110 and filter-input/forward/output at 0.

import type { NodePortScope } from '../dataplane/dataplane.js';
import type { Expr, NftChain, NftFamily, NftRule, Stmt } from './ast.js';
import { atLeast, type Version } from '../versions.js';

type BaseChain = NonNullable<NftChain['base']> & { readonly name: string };

const oldBaseChains: readonly BaseChain[] = [
  { name: 'filter-prerouting', type: 'filter', hook: 'prerouting', prio: -110 },
  { name: 'filter-input', type: 'filter', hook: 'input', prio: -110 },
  { name: 'filter-forward', type: 'filter', hook: 'forward', prio: -110 },
  { name: 'filter-output', type: 'filter', hook: 'output', prio: -110 },
  { name: 'filter-output-post-dnat', type: 'filter', hook: 'output', prio: -90 },
  { name: 'nat-prerouting', type: 'nat', hook: 'prerouting', prio: -100 },
  { name: 'nat-output', type: 'nat', hook: 'output', prio: -100 },
  { name: 'nat-postrouting', type: 'nat', hook: 'postrouting', prio: 100 },
];

const newBaseChains: readonly BaseChain[] = [
  { name: 'filter-prerouting-pre-dnat', type: 'filter', hook: 'prerouting', prio: -110 },
  { name: 'filter-output-pre-dnat', type: 'filter', hook: 'output', prio: -110 },
  { name: 'filter-input', type: 'filter', hook: 'input', prio: 0 },
  { name: 'filter-forward', type: 'filter', hook: 'forward', prio: 0 },
  { name: 'filter-output', type: 'filter', hook: 'output', prio: 0 },
  { name: 'nat-prerouting', type: 'nat', hook: 'prerouting', prio: -100 },
  { name: 'nat-output', type: 'nat', hook: 'output', prio: -100 },
  { name: 'nat-postrouting', type: 'nat', hook: 'postrouting', prio: 100 },
];

/** [destination chain, source base chain, `ct state new` guard], in nftablesJumpChains order. */
function jumpChains(newLayout: boolean): readonly [string, string, boolean][] {
  return [
    ['nodeport-endpoints-check', 'filter-input', true],
    ['service-endpoints-check', 'filter-input', true],
    ['service-endpoints-check', 'filter-forward', true],
    ['service-endpoints-check', 'filter-output', true],
    ['firewall-check', newLayout ? 'filter-prerouting-pre-dnat' : 'filter-prerouting', true],
    ['firewall-check', newLayout ? 'filter-output-pre-dnat' : 'filter-output', true],
    ['services', 'nat-output', false],
    ['services', 'nat-prerouting', false],
    ['masquerading', 'nat-postrouting', false],
    ['cluster-ips-check', 'filter-forward', true],
    ['cluster-ips-check', newLayout ? 'filter-output' : 'filter-output-post-dnat', true],
  ];
}

const meta = (key: string): Expr => ({ t: 'meta', key });
const daddr = (f: NftFamily): Expr => ({ t: 'payload', proto: f, field: 'daddr' });
const l4protoDport: Expr = {
  t: 'concat',
  items: [meta('l4proto'), { t: 'payload', proto: 'th', field: 'dport' }],
};
const triple = (f: NftFamily): Expr => ({ t: 'concat', items: [daddr(f), ...l4protoDport.items] });
const notLocalhost = (f: NftFamily): Stmt => ({
  t: 'match',
  op: '!=',
  left: daddr(f),
  right: f === 'ip' ? { t: 'prefix', addr: '127.0.0.0', len: 8 } : { t: 'value', value: '::1' },
});
const inNodePortIPs = (f: NftFamily): Stmt => ({
  t: 'match',
  op: '==',
  left: daddr(f),
  right: { t: 'setref', name: 'nodeport-ips' },
});
const rule = (...stmts: Stmt[]): NftRule => ({ stmts });

export function baseChains(
  family: NftFamily,
  version: Version,
  mark: number,
  nodePorts: NodePortScope,
): NftChain[] {
  const newLayout = atLeast(version, 35);
  const rules = new Map<string, NftRule[]>();
  const add = (chain: string, r: NftRule): void => {
    const list = rules.get(chain);
    if (list) list.push(r);
    else rules.set(chain, [r]);
  };
  for (const [dst, src, guard] of jumpChains(newLayout)) {
    const jump: Stmt = { t: 'verdict', verdict: { kind: 'jump', target: dst } };
    const ctNew: Stmt = {
      t: 'match',
      op: 'in',
      left: { t: 'ct', key: 'state' },
      right: { t: 'value', value: 'new' },
    };
    add(src, guard ? rule(ctNew, jump) : rule(jump));
  }
  const markExpr = (op: '|' | '^'): Expr => ({ t: 'bitwise', op, left: meta('mark'), mark });
  add('mark-for-masquerade', rule({ t: 'mangle', key: meta('mark'), value: markExpr('|') }));
  add(
    'masquerading',
    rule(
      {
        t: 'match',
        op: '==',
        left: { t: 'bitwise', op: '&', left: meta('mark'), mark },
        right: { t: 'mark', value: 0 },
      },
      { t: 'verdict', verdict: { kind: 'return' } },
    ),
  );
  add('masquerading', rule({ t: 'mangle', key: meta('mark'), value: markExpr('^') }));
  add('masquerading', rule({ t: 'masquerade' }));
  add('cluster-ips-check', {
    stmts: [
      { t: 'match', op: '==', left: daddr(family), right: { t: 'setref', name: 'cluster-ips' } },
      { t: 'reject' },
    ],
    comment: 'Reject traffic to invalid ports of ClusterIPs',
  });
  add('reject-chain', rule({ t: 'reject' }));
  add(
    'service-endpoints-check',
    rule({ t: 'vmap', key: triple(family), map: 'no-endpoint-services' }),
  );
  const npGuard = nodePorts.all ? notLocalhost(family) : inNodePortIPs(family);
  add(
    'nodeport-endpoints-check',
    rule(npGuard, { t: 'vmap', key: l4protoDport, map: 'no-endpoint-nodeports' }),
  );
  add('firewall-check', rule({ t: 'vmap', key: triple(family), map: 'firewall-ips' }));
  add('services', rule({ t: 'vmap', key: triple(family), map: 'service-ips' }));
  const fibLocal: Stmt = {
    t: 'match',
    op: '==',
    left: { t: 'fib', flag: 'daddr' },
    right: { t: 'value', value: 'local' },
  };
  add(
    'services',
    nodePorts.all
      ? rule(fibLocal, notLocalhost(family), {
          t: 'vmap',
          key: l4protoDport,
          map: 'service-nodeports',
        })
      : rule(inNodePortIPs(family), { t: 'vmap', key: l4protoDport, map: 'service-nodeports' }),
  );
  const regular = [
    'nodeport-endpoints-check',
    'service-endpoints-check',
    'firewall-check',
    'services',
    'masquerading',
    'cluster-ips-check',
    'mark-for-masquerade',
  ];
  return [
    ...(newLayout ? newBaseChains : oldBaseChains).map(({ name, ...base }) => ({
      name,
      base,
      rules: rules.get(name) ?? [],
    })),
    ...regular.map((name) => ({ name, rules: rules.get(name) ?? [] })),
    {
      name: 'reject-chain',
      comment: 'helper for @no-endpoint-services / @no-endpoint-nodeports',
      rules: rules.get('reject-chain') ?? [],
    },
  ];
}
