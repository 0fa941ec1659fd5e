// HTTP plumbing shared by the API handlers: headers the real apiserver always sends, JSON and
// Status responses, request bodies, and the Accept/Content-Type negotiation kubectl depends on.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, badRequest } from '../apimachinery/errors.js';
import type { JsonValue } from '../apimachinery/types.js';

/** kubectl's version dispatcher caches /version unless told not to; every response says so. */
export const baseHeaders = { 'Cache-Control': 'no-cache, private' } as const;

export function sendJson(
  res: ServerResponse,
  code: number,
  body: JsonValue,
  contentType = 'application/json',
  headers: Readonly<Record<string, string | readonly string[]>> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(code, {
    ...baseHeaders,
    'Content-Type': contentType,
    'Content-Length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

export function sendError(res: ServerResponse, error: ApiError): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  // responsewriters.ErrorNegotiated: a positive retryAfterSeconds is also a Retry-After header.
  const retry = error.details?.retryAfterSeconds ?? 0;
  const headers: Record<string, string> = retry > 0 ? { 'Retry-After': String(retry) } : {};
  sendJson(res, error.code, error.toStatus(), 'application/json', headers);
}

const maxBody = 16 * 1024 * 1024;

export async function readBody(req: IncomingMessage): Promise<string> {
  return (await readBodyBytes(req)).toString('utf8');
}

/** The raw body, for binary media types such as protobuf. */
export async function readBodyBytes(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > maxBody) throw new ApiError(413, 'BadRequest', 'the request body is too large');
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
}

export function parseJsonBody(text: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch (error) {
    throw badRequest(`error decoding request body: ${(error as Error).message}`);
  }
}

/** The media type without parameters, lower-cased: `application/json; charset=utf-8` → `application/json`. */
export function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** kubectl asks for Tables with `application/json;as=Table;v=v1;g=meta.k8s.io` first in Accept. */
export function wantsTable(accept: string | undefined): boolean {
  return (accept ?? '').split(',').some((part) => /;\s*as=Table/i.test(part));
}

/** Aggregated discovery is returned only to clients that ask for it, with the exact media type. */
export function aggregatedDiscoveryType(accept: string | undefined): string | undefined {
  for (const part of (accept ?? '').split(',')) {
    if (!/as=APIGroupDiscoveryList/.test(part) || !/g=apidiscovery\.k8s\.io/.test(part)) continue;
    if (/v=v2(;|$|\s)/.test(part))
      return 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
    if (/v=v2beta1/.test(part))
      return 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList';
  }
  return undefined;
}

/** Boolean query flags as the apiserver parses them (`true`, `1`). */
export function queryFlag(query: URLSearchParams, name: string): boolean {
  const v = query.get(name);
  return v === 'true' || v === '1';
}

export function queryInt(query: URLSearchParams, name: string): number | undefined {
  const v = query.get(name);
  if (v === null || v === '') return undefined;
  if (!/^-?\d+$/.test(v)) throw badRequest(`invalid ${name} parameter "${v}"`);
  return Number(v);
}

/** `dryRun=All` is the only value the apiserver accepts. */
export function dryRunOf(query: URLSearchParams): boolean {
  const values = query.getAll('dryRun');
  for (const v of values) if (v !== 'All') throw badRequest(`Invalid dry run value: ${v}`);
  return values.length > 0;
}
