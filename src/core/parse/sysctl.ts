/**
 * `sysctl` output for the conntrack keys pre-flight reads: `sysctl -n <key>` prints the bare value
 * (`262144`); `sysctl <key> <key>…` prints one `key = value` line per key it could read.
 */

/** `sysctl -n` output (or a `/proc/sys` file) holding one integer; undefined otherwise. */
export function parseSysctlNumber(text: string): number | undefined {
  const trimmed = text.trim();
  if (!/^-?\d+$/.test(trimmed)) return undefined;
  const value = Number(trimmed);
  return Number.isSafeInteger(value) ? value : undefined;
}

/** `sysctl KEY…` output: each `key = value` line by key (procps prints them in argument order). */
export function parseSysctlLines(text: string): Map<string, string> {
  const values = new Map<string, string>();
  for (const line of text.split('\n')) {
    const at = line.indexOf(' = ');
    if (at > 0) values.set(line.slice(0, at).trim(), line.slice(at + 3).trim());
  }
  return values;
}
