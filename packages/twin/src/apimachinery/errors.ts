// Kubernetes API errors as the real apiserver phrases them: a `Status` body with reason and code.
// Handlers throw ApiError; the server turns it into the response, so no path can forget the body.

import type { JsonObject } from './types.js';

export type StatusReason =
  | 'NotFound'
  | 'AlreadyExists'
  | 'Conflict'
  | 'BadRequest'
  | 'Invalid'
  | 'MethodNotAllowed'
  | 'Expired'
  | 'Gone'
  | 'UnsupportedMediaType'
  | 'NotAcceptable'
  | 'InternalError'
  | 'Timeout'
  | 'Forbidden'
  | 'TooManyRequests'
  /** StatusReasonUnknown: a plain Go error the apiserver turns into a 500 (the field is omitted). */
  | '';

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  causes?: { reason: string; message: string; field?: string }[];
  /** Also sent as a Retry-After header when positive (responsewriters.ErrorNegotiated). */
  retryAfterSeconds?: number;
}

export class ApiError extends Error {
  readonly code: number;
  readonly reason: StatusReason;
  readonly details: StatusDetails | undefined;

  constructor(code: number, reason: StatusReason, message: string, details?: StatusDetails) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.reason = reason;
    this.details = details;
  }

  toStatus(): JsonObject {
    return statusBody(this.code, this.reason, this.message, this.details);
  }
}

export function statusBody(
  code: number,
  reason: StatusReason,
  message: string,
  details?: StatusDetails,
): JsonObject {
  const body: JsonObject = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
  };
  if (reason !== '') body['reason'] = reason;
  if (details) body['details'] = JSON.parse(JSON.stringify(details)) as JsonObject;
  body['code'] = code;
  return body;
}

/** Identifies the resource in messages: `nodes "x"` or `daemonsets.apps "x"`. */
export interface Target {
  resource: string;
  group: string;
  name: string;
}

function detailsFor(t: Target): StatusDetails {
  return t.group === ''
    ? { name: t.name, kind: t.resource }
    : { name: t.name, group: t.group, kind: t.resource };
}

function qualified(t: Target): string {
  return t.group === '' ? t.resource : `${t.resource}.${t.group}`;
}

export function notFound(t: Target): ApiError {
  return new ApiError(404, 'NotFound', `${qualified(t)} "${t.name}" not found`, detailsFor(t));
}

export function alreadyExists(t: Target): ApiError {
  return new ApiError(
    409,
    'AlreadyExists',
    `${qualified(t)} "${t.name}" already exists`,
    detailsFor(t),
  );
}

export function conflict(t: Target): ApiError {
  return new ApiError(
    409,
    'Conflict',
    `Operation cannot be fulfilled on ${qualified(t)} "${t.name}": the object has been modified; please apply your changes to the latest version and try again`,
    detailsFor(t),
  );
}

export function badRequest(message: string): ApiError {
  return new ApiError(400, 'BadRequest', message);
}

/** 422 Invalid, worded like field.ErrorList: `ConfigMap "x" is invalid: metadata.name: Required value`. */
export function invalid(kind: string, name: string, field: string, message: string): ApiError {
  return new ApiError(422, 'Invalid', `${kind} "${name}" is invalid: ${field}: ${message}`, {
    name,
    kind,
    causes: [{ reason: 'FieldValueInvalid', message, field }],
  });
}

export function expired(message: string): ApiError {
  return new ApiError(410, 'Expired', message);
}

export function methodNotAllowed(message: string): ApiError {
  return new ApiError(405, 'MethodNotAllowed', message);
}

export function unsupportedMediaType(contentType: string, accepted: readonly string[]): ApiError {
  return new ApiError(
    415,
    'UnsupportedMediaType',
    `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`,
    { causes: [{ reason: 'UnsupportedMediaType', message: contentType }] },
  );
}

export function pageNotFound(): ApiError {
  return new ApiError(404, 'NotFound', 'the server could not find the requested resource', {
    causes: [{ reason: 'UnexpectedServerResponse', message: '404 page not found' }],
  });
}
