// kubectl's AGE strings (apimachinery duration.HumanDuration), rendered by the server because
// kubectl prints Table cells verbatim.

/** Formats an elapsed duration in milliseconds exactly as HumanDuration does. */
export function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.trunc(seconds / 60);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.trunc(minutes / 60);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  const days = Math.trunc(hours / 24);
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${days}d` : `${days}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${days}d`;
  const years = Math.trunc(days / 365);
  if (hours < 24 * 365 * 8) {
    const d = days % 365;
    return d === 0 ? `${years}y` : `${years}y${d}d`;
  }
  return `${years}y`;
}

/** translateTimestampSince: `<unknown>` for a missing or unparsable timestamp. */
export function ageSince(timestamp: unknown, nowMs: number): string {
  if (typeof timestamp !== 'string' || timestamp === '') return '<unknown>';
  const then = Date.parse(timestamp);
  if (Number.isNaN(then)) return '<unknown>';
  return humanDuration(nowMs - then);
}
