// The twin's own endpoints under /twin/: the scenario header, API faults, request counters, and
// host faults, which the node model serves through hooks (404 until it provides them).

import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { badRequest, methodNotAllowed, notFound, pageNotFound } from '../../apimachinery/errors.js';
import { readBody, sendJson } from '../http-util.js';
import type { HostFault } from '../../scenario/schema.js';
import { hostFaults } from '../../scenario/schema.js';
import type { JsonObject, JsonValue } from '../../apimachinery/types.js';
import { isJsonObject } from '../../apimachinery/types.js';
import { decodeBody } from '../resources/body.js';
import type { FaultInjector } from './faults.js';
import { parseFaults } from './faults.js';
import type { RequestStats } from './stats.js';

export interface HostFaultHooks {
  /** Replaces a node's host faults; false when there is no such node (404). */
  setHostFaults?: ((node: string, faults: HostFault[]) => boolean) | undefined;
  /** A node's current host faults; undefined when there is no such node (404). */
  getHostFaults?: ((node: string) => readonly HostFault[] | undefined) | undefined;
}

export interface AdminContext extends HostFaultHooks {
  scenarioHeader: JsonObject;
  faults: FaultInjector;
  stats: RequestStats;
}

const hostFaultList = z.array(z.enum(hostFaults));

async function body(req: IncomingMessage): Promise<JsonValue> {
  const text = await readBody(req);
  if (text.trim() === '') throw badRequest('the request body must not be empty');
  return decodeBody(text, req.headers['content-type'] ?? '');
}

function faultsBody(ctx: AdminContext): JsonObject {
  return {
    faults: ctx.faults.faults as unknown as JsonValue[],
    seed: ctx.faults.seed,
    injected: { ...ctx.faults.injected },
  };
}

const notAllowed = () =>
  methodNotAllowed('the server does not allow this method on the requested resource');

async function handleFaults(
  ctx: AdminContext,
  req: IncomingMessage,
  query: URLSearchParams,
): Promise<JsonObject> {
  const seedText = query.get('seed');
  // ?seed=42 must mean the same PRNG as the numeric option faultSeed: 42.
  const seed = seedText === null ? undefined : /^\d+$/.test(seedText) ? Number(seedText) : seedText;
  switch (req.method) {
    case 'GET':
      return faultsBody(ctx);
    case 'PUT':
      ctx.faults.replace(parseFaults(await body(req)), seed);
      return faultsBody(ctx);
    case 'POST':
      ctx.faults.append(parseFaults(await body(req)));
      return faultsBody(ctx);
    case 'DELETE':
      ctx.faults.clear();
      return faultsBody(ctx);
    default:
      throw notAllowed();
  }
}

async function handleHostFaults(
  ctx: AdminContext,
  req: IncomingMessage,
  node: string,
): Promise<JsonObject> {
  const missing = () => notFound({ resource: 'nodes', group: '', name: node });
  if (req.method === 'GET') {
    if (!ctx.getHostFaults) throw pageNotFound();
    const current = ctx.getHostFaults(node);
    if (!current) throw missing();
    return { node, faults: [...current] };
  }
  if (req.method !== 'PUT' && req.method !== 'DELETE') throw notAllowed();
  if (!ctx.setHostFaults) throw pageNotFound();
  let faults: HostFault[] = [];
  if (req.method === 'PUT') {
    const value = await body(req);
    const parsed = hostFaultList.safeParse(isJsonObject(value) ? value['faults'] : value);
    if (!parsed.success) {
      throw badRequest(
        `invalid host faults: ${parsed.error.issues.map((i) => `faults${i.path.map((p) => `[${String(p)}]`).join('')}: ${i.message}`).join('; ')}`,
      );
    }
    faults = parsed.data;
  }
  if (!ctx.setHostFaults(node, faults)) throw missing();
  return { node, faults };
}

/** `path` is what follows /twin, e.g. `/faults`. */
export async function handleAdmin(
  ctx: AdminContext,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  query: URLSearchParams,
): Promise<void> {
  const host = /^\/hosts\/([^/]+)\/faults$/.exec(path);
  if (host)
    return sendJson(res, 200, await handleHostFaults(ctx, req, decodeURIComponent(host[1] ?? '')));
  switch (path) {
    case '/scenario':
      if (req.method !== 'GET') throw notAllowed();
      return sendJson(res, 200, ctx.scenarioHeader);
    case '/faults':
      return sendJson(res, 200, await handleFaults(ctx, req, query));
    case '/stats':
      if (req.method === 'DELETE') {
        ctx.stats.reset();
        ctx.faults.resetCounts();
      } else if (req.method !== 'GET') {
        throw notAllowed();
      }
      return sendJson(res, 200, { ...ctx.stats.snapshot(), injected: { ...ctx.faults.injected } });
    default:
      throw pageNotFound();
  }
}
