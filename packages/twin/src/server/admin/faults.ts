// API faults (TWIN.md): latency, 5xx errors, 429 throttling, 409 conflicts on writes, reset
// connections and watch drops, scoped by verb and resource. Draws come from a seeded PRNG that restarts on every change of the fault list.

import { badRequest, conflict } from '../../apimachinery/errors.js';
import type { ApiFault } from '../../scenario/schema.js';
import { scenarioHeaderSchema } from '../../scenario/schema.js';
import type { JsonObject } from '../../apimachinery/types.js';
import { isJsonObject } from '../../apimachinery/types.js';
import type { Random } from './prng.js';
import { seededRandom } from './prng.js';
import type { RequestInfo } from '../request-info.js';

export type { ApiFault } from '../../scenario/schema.js';

/** The scenario's own `spec.faults` schema, so the admin endpoint accepts exactly what files do. */
const faultListSchema = scenarioHeaderSchema.shape.spec.shape.faults;

/** A response that replaces the real one: the status, a Status body and extra headers. */
export interface FaultResponse {
  code: 409 | 429 | 500 | 503;
  body: JsonObject;
  headers: Record<string, string>;
}

export interface FaultDecision {
  latencyMs: number;
  response: FaultResponse | undefined;
  /** Close the connection without an answer (the client sees ECONNRESET). */
  reset: boolean;
}

export interface InjectedCounts {
  latency: number;
  error: number;
  throttle: number;
  conflict: number;
  reset: number;
  watchDrop: number;
}

const NO_COUNTS: InjectedCounts = {
  latency: 0,
  error: 0,
  throttle: 0,
  conflict: 0,
  reset: 0,
  watchDrop: 0,
};

/**
 * The writes that can lose a resourceVersion race, the only ones the apiserver answers 409
 * Conflict. A create's 409 is AlreadyExists, which says the object is there: a fault cannot make
 * that true, so creates never draw.
 */
const CONFLICT_VERBS = new Set(['update', 'patch', 'delete', 'deletecollection']);

/** The object a request names, for the Conflict message (`nodes "x"`, `daemonsets.apps "x"`). */
export interface FaultTarget {
  group: string;
  name: string | undefined;
}

function listIncludes(list: readonly string[] | undefined, value: string): boolean {
  return list === undefined || list.length === 0 || list.includes('*') || list.includes(value);
}

/**
 * Verbs and resources match like RBAC rules: `pods` names the pods resource only, `pods/log` its
 * log subresource, `*` everything; an absent or empty list matches all.
 */
export function faultMatches(fault: ApiFault, info: RequestInfo): boolean {
  return listIncludes(fault.verbs, info.verb) && listIncludes(fault.resources, info.resource);
}

function statusBody(code: number, reason: string, message: string, details?: JsonObject) {
  const body: JsonObject = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure' };
  body['message'] = message;
  body['reason'] = reason;
  if (details) body['details'] = details;
  body['code'] = code;
  return body;
}

export function throttleResponse(retryAfterSeconds: number): FaultResponse {
  // Retry-After is whole seconds; client-go waits exactly that long before retrying.
  const seconds = Math.ceil(retryAfterSeconds);
  return {
    code: 429,
    body: statusBody(429, 'TooManyRequests', 'Too many requests, please try again later.', {
      retryAfterSeconds: seconds,
    }),
    headers: { 'Retry-After': String(seconds) },
  };
}

export function errorResponse(code: 500 | 503): FaultResponse {
  const cause = 'twin: injected API fault';
  const body =
    code === 500
      ? statusBody(500, 'InternalError', `Internal error occurred: ${cause}`, {
          causes: [{ message: cause }],
        })
      : statusBody(
          503,
          'ServiceUnavailable',
          `the server is currently unable to handle the request (${cause})`,
        );
  // No Retry-After: client-go retries 5xx answers that carry one, and these should surface.
  return { code, body, headers: {} };
}

/**
 * The apiserver's answer to a write whose resourceVersion lost a race (storage's
 * OptimisticLockErrorMsg in errors.NewConflict): nothing was written.
 */
export function conflictResponse(resource: string, target: FaultTarget): FaultResponse {
  const error = conflict({ resource, group: target.group, name: target.name ?? '' });
  return { code: 409, body: error.toStatus(), headers: {} };
}

/** Reads a fault list from an admin request body: an array, `{faults: [...]}`, or one fault. */
export function parseFaults(value: unknown): ApiFault[] {
  let list: unknown = value;
  if (isJsonObject(value)) list = 'kind' in value ? [value] : value['faults'];
  if (list === undefined || list === null)
    throw badRequest('invalid faults: expected a list of faults, {"faults": [...]} or one fault');
  const result = faultListSchema.safeParse(list);
  if (!result.success) {
    const problems = result.error.issues
      .map(
        (i) =>
          `faults${i.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('')}: ${i.message}`,
      )
      .join('; ');
    throw badRequest(`invalid faults: ${problems}`);
  }
  return result.data;
}

export class FaultInjector {
  private list: ApiFault[];
  private random: Random;
  private counts: InjectedCounts = { ...NO_COUNTS };

  constructor(
    faults: readonly ApiFault[] = [],
    private seedValue: string | number = 'twin',
  ) {
    this.list = [...faults];
    this.random = seededRandom(seedValue);
  }

  get faults(): readonly ApiFault[] {
    return this.list;
  }

  get seed(): string | number {
    return this.seedValue;
  }

  get injected(): InjectedCounts {
    return { ...this.counts };
  }

  /** Replaces the list and restarts the PRNG, so the same list always injects the same faults. */
  replace(faults: readonly ApiFault[], seed: string | number = this.seedValue): void {
    this.list = [...faults];
    this.seedValue = seed;
    this.random = seededRandom(seed);
  }

  append(faults: readonly ApiFault[]): void {
    this.replace([...this.list, ...faults]);
  }

  clear(): void {
    this.replace([]);
  }

  resetCounts(): void {
    this.counts = { ...NO_COUNTS };
  }

  /**
   * Latencies add up; the first error, throttle, conflict or reset fault that fires answers the
   * request. Each matching rate fault consumes one draw until one fires, in list order. A
   * conflict fault only draws on updates, patches and deletes.
   */
  decide(info: RequestInfo, target: FaultTarget = { group: '', name: undefined }): FaultDecision {
    let latencyMs = 0;
    let response: FaultResponse | undefined;
    let reset = false;
    const fired = (): boolean => response !== undefined || reset;
    for (const fault of this.list) {
      if (!faultMatches(fault, info)) continue;
      switch (fault.kind) {
        case 'latency':
          // Without a rate every matching request waits, and no draw is used.
          if (fault.rate === undefined || this.random() < fault.rate) latencyMs += fault.ms;
          break;
        case 'error':
          if (!fired() && this.random() < fault.rate) response = errorResponse(fault.status);
          break;
        case 'throttle':
          if (!fired() && this.random() < fault.rate)
            response = throttleResponse(fault.retryAfterSeconds);
          break;
        case 'conflict':
          if (!fired() && CONFLICT_VERBS.has(info.verb) && this.random() < fault.rate)
            response = conflictResponse(info.resource.split('/')[0] ?? info.resource, target);
          break;
        case 'reset':
          if (!fired() && this.random() < fault.rate) reset = true;
          break;
        case 'watch-drop':
          break;
      }
    }
    if (latencyMs > 0) this.counts.latency += 1;
    if (reset) this.counts.reset += 1;
    else if (response?.code === 429) this.counts.throttle += 1;
    else if (response?.code === 409) this.counts.conflict += 1;
    else if (response) this.counts.error += 1;
    return { latencyMs, response, reset };
  }

  /** The shortest watch lifetime a watch-drop fault imposes on watches of this resource. */
  watchLifetimeMs(resource: string): number | undefined {
    let shortest: number | undefined;
    for (const fault of this.list) {
      if (fault.kind !== 'watch-drop' || !faultMatches(fault, { verb: 'watch', resource }))
        continue;
      const ms = fault.everySeconds * 1000;
      if (shortest === undefined || ms < shortest) shortest = ms;
    }
    return shortest;
  }

  countWatchDrop(): void {
    this.counts.watchDrop += 1;
  }
}
