/**
 * Puts a case's request on the wire with node:http, so every header (or its absence) is the
 * case's own, and signs it at send time the way the case says: Slack's v0 signature, or one of
 * the ways a forger gets it wrong.
 */
import { request as httpRequest } from 'node:http';
import { nowSeconds, signSlackRequest } from '../../fakes/slack-signing.js';
import type { Signing, WireRequest } from './case.js';

export interface Sent {
  status?: number;
  body: string;
  /** A transport error (the edge may close the connection on an oversized body). */
  error?: string;
}

function signatureHeaders(secret: string, body: string, signing: Signing): Record<string, string> {
  const now = nowSeconds();
  switch (signing) {
    case 'valid':
      return { ...signSlackRequest(secret, body, now) };
    case 'forged':
      return {
        ...signSlackRequest(secret, body, now),
        'x-slack-signature': `v0=${'0'.repeat(64)}`,
      };
    case 'wrong-secret':
      return { ...signSlackRequest(`${secret}x`, body, now) };
    case 'stale':
      return { ...signSlackRequest(secret, body, now - 6 * 60) };
    case 'future':
      return { ...signSlackRequest(secret, body, now + 6 * 60) };
    case 'missing':
      return {};
    case 'bad-timestamp': {
      const signed = signSlackRequest(secret, body, now);
      return { ...signed, 'x-slack-request-timestamp': `${now}.5` };
    }
    case 'other-body':
      return { ...signSlackRequest(secret, `${body}&x=1`, now) };
    case 'upper-hex': {
      const signed = signSlackRequest(secret, body, now);
      return { ...signed, 'x-slack-signature': signed['x-slack-signature'].toUpperCase() };
    }
    case 'v1': {
      const signed = signSlackRequest(secret, body, now);
      return { ...signed, 'x-slack-signature': signed['x-slack-signature'].replace(/^v0=/, 'v1=') };
    }
  }
}

export function headersFor(secret: string, wire: WireRequest): Record<string, string> {
  return {
    ...(wire.contentType === undefined ? {} : { 'content-type': wire.contentType }),
    'user-agent': 'Slackbot 1.0 (+https://api.slack.com/robots)',
    ...signatureHeaders(secret, wire.body, wire.signing),
  };
}

/** One HTTP exchange; never rejects, never waits longer than `timeoutMs`. */
export function send(
  port: number,
  wire: WireRequest,
  headers: Record<string, string>,
  timeoutMs = 15_000,
): Promise<Sent> {
  return new Promise((resolve) => {
    const bytes = Buffer.from(wire.body, 'utf8');
    const result: Sent = { body: '' };
    let settled = false;
    const done = (): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const req = httpRequest({
      host: '127.0.0.1',
      port,
      path: '/slack/events',
      method: wire.method,
      headers: wire.chunked ? headers : { ...headers, 'content-length': String(bytes.length) },
      agent: false,
    });
    const timer = setTimeout(() => {
      result.error = 'timeout';
      req.destroy();
      done();
    }, timeoutMs);
    req.on('response', (res) => {
      if (res.statusCode !== undefined) result.status = res.statusCode;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        result.body = Buffer.concat(chunks).toString('utf8');
        done();
      });
      res.on('error', () => done());
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      // After the answer arrived, a reset is the edge closing a connection it will not read.
      if (result.status === undefined) result.error = error.code ?? error.message;
      done();
    });
    if (wire.chunked) {
      for (let at = 0; at < bytes.length && !req.destroyed; at += 16 * 1024) {
        req.write(bytes.subarray(at, at + 16 * 1024));
      }
      req.end();
    } else {
      req.end(bytes);
    }
  });
}
