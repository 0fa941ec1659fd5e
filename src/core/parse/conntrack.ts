/**
 * `conntrack -S` (reference/kube-proxy-facts.md §11): one line per CPU, `cpu=%-4u\t` then
 * `key=value ` per counter with a trailing space. Counters differ by kernel (older ones add
 * `ignore=`, lack `clash_resolve`/`chaintoolong`), and when netlink stats are unavailable
 * conntrack-tools prints the `/proc/net/stat/nf_conntrack` column names the same way. The raw
 * `/proc/net/stat/nf_conntrack` file (a header of names, then one row of hex values per CPU) is
 * accepted too, so a probe can fall back to `cat` on hosts without conntrack-tools.
 */

export interface ConntrackCpuStats {
  cpu: number;
  /** Counter name → value, exactly as the tool names them (`invalid`, `insert_failed`, …). */
  counters: Record<string, number>;
}

const KEY_VALUE = /([A-Za-z_][A-Za-z0-9_]*)=(\d+)/g;

function parseKeyValueLine(line: string): ConntrackCpuStats | undefined {
  const counters: Record<string, number> = {};
  let cpu: number | undefined;
  for (const match of line.matchAll(KEY_VALUE)) {
    const key = match[1] ?? '';
    const value = Number(match[2]);
    if (key === 'cpu') cpu = value;
    else counters[key] = value;
  }
  return cpu === undefined ? undefined : { cpu, counters };
}

function parseProcTable(lines: readonly string[]): ConntrackCpuStats[] {
  const [header, ...rows] = lines;
  const names = (header ?? '').trim().split(/\s+/);
  if (!names.every((name) => /^[a-z_]+$/.test(name))) return [];
  const stats: ConntrackCpuStats[] = [];
  for (const row of rows) {
    const cells = row.trim().split(/\s+/);
    if (cells.length !== names.length || !cells.every((cell) => /^[0-9a-fA-F]+$/.test(cell))) {
      continue;
    }
    const counters: Record<string, number> = {};
    names.forEach((name, i) => {
      counters[name] = Number.parseInt(cells[i] ?? '0', 16);
    });
    stats.push({ cpu: stats.length, counters });
  }
  return stats;
}

/** Per-CPU counters in CPU order; empty when the text holds no recognisable statistics. */
export function parseConntrackStats(text: string): ConntrackCpuStats[] {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  const keyValue = lines
    .map(parseKeyValueLine)
    .filter((s): s is ConntrackCpuStats => s !== undefined);
  if (keyValue.length > 0) return keyValue.sort((a, b) => a.cpu - b.cpu);
  return parseProcTable(lines);
}

/** One counter per CPU (0 where a CPU's line lacks it), e.g. the `invalid` column. */
export function counterPerCpu(stats: readonly ConntrackCpuStats[], counter: string): number[] {
  return stats.map((s) => s.counters[counter] ?? 0);
}

/** `invalid=` per CPU: packets conntrack could not match to a valid state. */
export function invalidPerCpu(stats: readonly ConntrackCpuStats[]): number[] {
  return counterPerCpu(stats, 'invalid');
}

/** A counter's per-CPU values (from {@link counterPerCpu} or {@link invalidPerCpu}) summed. */
export function sumCounter(perCpu: readonly number[]): number {
  return perCpu.reduce((sum, n) => sum + n, 0);
}
