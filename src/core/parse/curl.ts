/**
 * What a `curl -sS -o /dev/null -w '%{http_code}' URL` from a node says about the path to a
 * Service: an HTTP status (any status: something answered through the dataplane), a connection
 * without an HTTP answer (a non-HTTP backend: TLS errors, empty reply, reset after connect), a
 * refusal (nothing listening, or a reject rule), or a timeout (dropped). Exit codes are curl's
 * (libcurl-errors): 7 couldn't connect, 28 timed out, 6 unresolved, 52 empty reply, 56 recv
 * failure, 35/60 TLS, 8 weird reply, 1 unsupported protocol.
 */

export type CurlOutcome =
  | { kind: 'http'; status: number }
  | { kind: 'connected'; exitCode: number; message: string }
  | { kind: 'refused'; message: string }
  | { kind: 'timed-out'; message: string }
  | { kind: 'failed'; exitCode: number; message: string };

/** Exits after which a TCP connection had been made. */
const CONNECTED = new Set([1, 8, 16, 35, 52, 56, 60, 92]);

/** curl's own message (`curl: (7) Failed to connect …`), else the last stderr line. */
export function curlMessage(stderr: string): string {
  const lines = stderr
    .split(/[\r\n]+/)
    .map((l) => l.trim())
    .filter((l) => l !== '');
  return lines.find((l) => /^curl: \(\d+\)/.test(l)) ?? lines[lines.length - 1] ?? '';
}

/** The `%{http_code}` curl printed last on stdout; 0 (`000`) when nothing answered. */
export function writtenStatus(stdout: string): number | undefined {
  const match = /(\d{3})\s*$/.exec(stdout);
  return match === null ? undefined : Number(match[1]);
}

export function curlOutcome(exitCode: number, stdout: string, stderr: string): CurlOutcome {
  const message = curlMessage(stderr) || `curl exited ${exitCode}`;
  const status = writtenStatus(stdout);
  if ((exitCode === 0 || exitCode === 22) && status !== undefined && status > 0)
    return { kind: 'http', status };
  if (exitCode === 7) return { kind: 'refused', message };
  if (exitCode === 28) return { kind: 'timed-out', message };
  if (CONNECTED.has(exitCode)) return { kind: 'connected', exitCode, message };
  return { kind: 'failed', exitCode, message };
}

/** True when the target answered: any HTTP status, or a connection to a non-HTTP server. */
export function answered(outcome: CurlOutcome): boolean {
  return outcome.kind === 'http' || outcome.kind === 'connected';
}
