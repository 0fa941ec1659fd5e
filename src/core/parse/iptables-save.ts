/**
 * `iptables-save` output: `*table`, `:CHAIN POLICY [p:b]`, `-A CHAIN …` rules, `COMMIT`. Kept as
 * the rollback reference and to see IPVS mode's leftovers (KUBE-SERVICES, KUBE-NODE-PORT, …;
 * facts §6) after a cutover.
 */
import { parsed, unparsable, type Parsed } from './parsed.js';

export interface IptablesTable {
  name: string;
  chains: string[];
  /** Rules per chain, in order of appearance. */
  rules: Map<string, number>;
}

export interface IptablesSave {
  tables: IptablesTable[];
}

export function parseIptablesSave(text: string): Parsed<IptablesSave> {
  const tables: IptablesTable[] = [];
  let current: IptablesTable | undefined;
  for (const [i, line] of text.split('\n').entries()) {
    const t = line.trim();
    if (t === '' || t.startsWith('#')) continue;
    if (t.startsWith('*')) {
      current = { name: t.slice(1), chains: [], rules: new Map() };
      tables.push(current);
    } else if (t === 'COMMIT') {
      current = undefined;
    } else if (current === undefined) {
      return unparsable(`iptables-save line ${i + 1}: outside a table ("${t}")`);
    } else if (t.startsWith(':')) {
      current.chains.push(t.slice(1).split(/\s+/)[0] ?? '');
    } else if (t.startsWith('-A ')) {
      const chain = t.split(/\s+/)[1] ?? '';
      current.rules.set(chain, (current.rules.get(chain) ?? 0) + 1);
    } else {
      return unparsable(`iptables-save line ${i + 1}: unexpected "${t}"`);
    }
  }
  return parsed({ tables });
}

/** Chains kube-proxy owns (`KUBE-…`), as `table/CHAIN`. */
export function kubeChains(save: IptablesSave): string[] {
  return save.tables.flatMap((t) =>
    t.chains.filter((c) => c.startsWith('KUBE-')).map((c) => `${t.name}/${c}`),
  );
}
