/**
 * Bursts of signed Slack requests, all in flight at once, timed from the moment each is sent to
 * the end of its HTTP answer (Bolt's ack): what Slack's 3-second clock measures. Requests are
 * signed before the burst so signing does not delay the later ones.
 */
import { request as httpRequest } from 'node:http';
import { signSlackRequest } from '../fakes/slack-signing.js';

export interface SignedRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
}

export interface BurstAnswer {
  status: number;
  body: string;
  ms: number;
}

/** A form-encoded Slack request, signed with `secret` now. */
export function signed(url: string, body: string, secret: string): SignedRequest {
  return {
    url,
    body,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'user-agent': 'Slackbot 1.0 (+https://api.slack.com/robots)',
      ...signSlackRequest(secret, body),
    },
  };
}

/**
 * One request on its own connection (as Slack's deliveries arrive), timed to its last byte.
 * Plain node:http rather than fetch: no client-side pool to queue behind.
 */
function send(req: SignedRequest): Promise<BurstAnswer> {
  return new Promise((resolve) => {
    const started = performance.now();
    const url = new URL(req.url);
    const out = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        agent: false,
        headers: { ...req.headers, 'content-length': String(Buffer.byteLength(req.body)) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8'),
            ms: performance.now() - started,
          }),
        );
        res.on('error', () => resolve({ status: 0, body: '', ms: performance.now() - started }));
      },
    );
    out.on('error', () => resolve({ status: 0, body: '', ms: performance.now() - started }));
    out.end(req.body);
  });
}

/** Sends every request at once; answers in the order of `requests`. */
export function burst(requests: readonly SignedRequest[]): Promise<BurstAnswer[]> {
  return Promise.all(requests.map(send));
}

/** The p-th percentile (0–100) by nearest rank; NaN for no values. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

export interface LatencySummary {
  n: number;
  p50: number;
  p99: number;
  max: number;
}

export function summarize(ms: readonly number[]): LatencySummary {
  return {
    n: ms.length,
    p50: percentile(ms, 50),
    p99: percentile(ms, 99),
    max: ms.length === 0 ? Number.NaN : Math.max(...ms),
  };
}

export const fmtMs = (ms: number): string => `${ms.toFixed(0).padStart(5)} ms`;
