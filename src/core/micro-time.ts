/**
 * metav1.MicroTime on the wire: RFC 3339 with exactly six fractional digits. A Lease's
 * acquireTime and renewTime in JavaScript's three-digit toISOString() form are rejected with 400
 * by real API servers (kubernetes-client/javascript#828), so the lock writes them this way.
 */
export function microTime(date: Date): string {
  return date.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

/** Parses a MicroTime (or any RFC 3339 time) to epoch milliseconds; NaN when it is not one. */
export function parseMicroTime(value: string | undefined): number {
  return value === undefined ? Number.NaN : Date.parse(value);
}
