/**
 * `sysctl` output for the conntrack keys pre-flight reads: `sysctl -n <key>` prints the bare value
 * (`262144`), `sysctl <key> <key>` prints `net.netfilter.nf_conntrack_count = 1200` per line.
 */

/** `sysctl -n` output (or a `/proc/sys` file) holding one integer; undefined otherwise. */
export function parseSysctlNumber(text: string): number | undefined {
  const trimmed = text.trim();
  if (!/^-?\d+$/.test(trimmed)) return undefined;
  const value = Number(trimmed);
  return Number.isSafeInteger(value) ? value : undefined;
}

/** `key = value` lines → key → integer; lines that are not integers are skipped. */
export function parseSysctlNumbers(text: string): Map<string, number> {
  const values = new Map<string, number>();
  for (const line of text.split('\n')) {
    const match = /^\s*([\w.\-/]+)\s*=\s*(.*)$/.exec(line);
    if (!match) continue;
    const value = parseSysctlNumber(match[2] ?? '');
    if (value !== undefined) values.set(match[1] ?? '', value);
  }
  return values;
}
