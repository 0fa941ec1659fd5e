/**
 * `sysctl` output for the conntrack keys pre-flight reads: `sysctl -n <key>` prints the bare value
 * (`262144`).
 */

/** `sysctl -n` output (or a `/proc/sys` file) holding one integer; undefined otherwise. */
export function parseSysctlNumber(text: string): number | undefined {
  const trimmed = text.trim();
  if (!/^-?\d+$/.test(trimmed)) return undefined;
  const value = Number(trimmed);
  return Number.isSafeInteger(value) ? value : undefined;
}
