// A node's iptables tables as iptables-nft keeps them: per table the base chains in hook order
// and the user chains, each with its rules as iptables-save prints them after `-A CHAIN`.

export type TableName = 'mangle' | 'filter' | 'nat';

/** iptables-nft-save's table order (the builtin table array), and each table's base chains. */
export const tableOrder: readonly TableName[] = ['mangle', 'filter', 'nat'];
const builtins: Record<TableName, readonly string[]> = {
  mangle: ['PREROUTING', 'INPUT', 'FORWARD', 'OUTPUT', 'POSTROUTING'],
  filter: ['INPUT', 'FORWARD', 'OUTPUT'],
  nat: ['PREROUTING', 'INPUT', 'OUTPUT', 'POSTROUTING'],
};

export interface IptTable {
  readonly name: TableName;
  /** Base chains in hook order, each with its rules. */
  readonly builtins: readonly (readonly [string, readonly string[]])[];
  /** User chains sorted by name, as iptables-nft lists them. */
  readonly chains: readonly (readonly [string, readonly string[]])[];
}

/** Collects chains and rules as the programs write them (EnsureChain, Prepend/Append). */
export class TablesBuilder {
  private readonly tables = new Map<TableName, Map<string, string[]>>();

  chain(table: TableName, name: string): string[] {
    let t = this.tables.get(table);
    if (!t) {
      t = new Map(builtins[table].map((b) => [b, []]));
      this.tables.set(table, t);
    }
    let rules = t.get(name);
    if (!rules) {
      rules = [];
      t.set(name, rules);
    }
    return rules;
  }

  append(table: TableName, chain: string, rule: string): void {
    this.chain(table, chain).push(rule);
  }

  /** EnsureRule(Prepend): iptables -I, the newest first. */
  prepend(table: TableName, chain: string, rule: string): void {
    this.chain(table, chain).unshift(rule);
  }

  build(): IptTable[] {
    return tableOrder.flatMap((name) => {
      const t = this.tables.get(name);
      if (!t) return [];
      const base = builtins[name];
      const user = [...t.keys()]
        .filter((c) => !base.includes(c))
        .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      return [
        {
          name,
          builtins: base.map((c) => [c, t.get(c) ?? []] as const),
          chains: user.map((c) => [c, t.get(c) ?? []] as const),
        },
      ];
    });
  }
}
