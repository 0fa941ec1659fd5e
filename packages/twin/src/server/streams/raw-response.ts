// HTTP answers written straight to a socket: an `upgrade` request has no ServerResponse, yet a
// refused exec must still get a Status body (kubectl prints it after its SPDY retry).

import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { ApiError } from '../../apimachinery/errors.js';
import { baseHeaders } from '../http-util.js';
import type { JsonObject } from '../../apimachinery/types.js';

export function writeRawJson(
  socket: Duplex,
  code: number,
  body: JsonObject,
  headers: Record<string, string> = {},
): void {
  if (socket.destroyed) return;
  const text = JSON.stringify(body);
  const lines = [
    `HTTP/1.1 ${code} ${STATUS_CODES[code] ?? ''}`,
    ...Object.entries({
      ...baseHeaders,
      'Content-Type': 'application/json',
      'Content-Length': String(Buffer.byteLength(text)),
      Connection: 'close',
      ...headers,
    }).map(([k, v]) => `${k}: ${v}`),
  ];
  socket.end(`${lines.join('\r\n')}\r\n\r\n${text}`);
}

/** A plain-text answer, as Go's net/http sends a body it sniffs as text. */
export function writeRawText(socket: Duplex, code: number, text: string): void {
  if (socket.destroyed) return;
  const lines = [
    `HTTP/1.1 ${code} ${STATUS_CODES[code] ?? ''}`,
    'Content-Type: text/plain; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(text)}`,
    'Connection: close',
  ];
  socket.end(`${lines.join('\r\n')}\r\n\r\n${text}`);
}

export function writeRawError(socket: Duplex, error: unknown): void {
  const apiError =
    error instanceof ApiError
      ? error
      : new ApiError(
          500,
          'InternalError',
          `Internal error occurred: ${error instanceof Error ? error.message : String(error)}`,
        );
  writeRawJson(socket, apiError.code, apiError.toStatus());
}
