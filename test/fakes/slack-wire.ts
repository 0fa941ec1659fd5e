import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';

/**
 * Decoding of what the Slack SDKs put on the wire. WebClient form-encodes every argument and
 * JSON-stringifies the non-scalar ones, so without this tests would assert on JSON strings.
 */

export type Args = Record<string, unknown>;

/** Arguments that arrive as JSON strings inside a form but are objects to the caller. */
const jsonFields = ['blocks', 'attachments', 'files', 'metadata'] as const;

export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req)
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks);
}

function contentTypeOf(headers: IncomingHttpHeaders): string {
  return (headers['content-type'] ?? '').toLowerCase();
}

/** Multipart is parsed by undici rather than by hand, which would be a second parser to debug. */
function multipart(raw: Buffer, contentType: string): Promise<FormData> {
  return new Request('http://fake.invalid/', {
    method: 'POST',
    headers: { 'content-type': contentType },
    body: raw,
  }).formData();
}

/** Parses a Web API request body (form, JSON or multipart) merged over its query string. */
export async function parseArgs(
  raw: Buffer,
  headers: IncomingHttpHeaders,
  query: URLSearchParams,
): Promise<Args> {
  const args: Args = Object.fromEntries(query);
  const contentType = contentTypeOf(headers);
  if (raw.length === 0) return args;
  if (contentType.includes('application/json')) {
    const parsed: unknown = JSON.parse(raw.toString('utf8'));
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new Error('JSON body is not an object');
    }
    return { ...args, ...(parsed as Args) };
  }
  if (contentType.includes('multipart/form-data')) {
    for (const [key, value] of await multipart(raw, contentType)) {
      args[key] = typeof value === 'string' ? value : Buffer.from(await value.arrayBuffer());
    }
    return args;
  }
  return { ...args, ...Object.fromEntries(new URLSearchParams(raw.toString('utf8'))) };
}

/** Turns JSON-string fields back into objects; a value that is not JSON is left for validation. */
export function decodeJsonFields(args: Args): Args {
  for (const field of jsonFields) {
    const value = args[field];
    if (typeof value !== 'string') continue;
    try {
      args[field] = JSON.parse(value) as unknown;
    } catch {
      // Slack answers invalid_blocks_format and friends; leaving the string lets the handler do so.
    }
  }
  return args;
}

export function bearerToken(headers: IncomingHttpHeaders): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(headers.authorization ?? '');
  return match?.[1];
}

/**
 * The bytes of an upload. WebClient 8 posts a Buffer through its generic request path, which turns
 * it into multipart/form-data with a single part named `body`; other clients post raw bytes.
 */
export async function uploadedBytes(raw: Buffer, headers: IncomingHttpHeaders): Promise<Buffer> {
  const contentType = contentTypeOf(headers);
  if (!contentType.includes('multipart/form-data')) return raw;
  const form = await multipart(raw, contentType);
  for (const [, value] of form) {
    if (typeof value !== 'string') return Buffer.from(await value.arrayBuffer());
  }
  const [first] = [...form.values()];
  return Buffer.from(typeof first === 'string' ? first : '');
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(payload),
    ...headers,
  });
  res.end(payload);
}
