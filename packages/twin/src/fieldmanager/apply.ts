// FieldManager.Apply: server-side apply of a configuration by `manager`, through the same stack
// as upstream (version check, last-applied updater and manager, skip-non-applied, manager info,
// managed-fields updater, strip-meta, structured merge). Throws the apiserver's errors.

import { ApiError, badRequest } from '../apimachinery/errors.js';
import type { JsonObject, KubeObject } from '../apimachinery/types.js';
import { isJsonObject } from '../apimachinery/types.js';
import { applyConflict } from './conflict.js';
import { recordUpdate, stripMeta, withoutManagedFields } from './field-manager.js';
import type { KindContext } from './kind-context.js';
import { allowedConflicts, lastAppliedAnnotation, syncLastApplied } from './last-applied.js';
import type { Managed } from './managed.js';
import { decodeManaged, encodeManaged, managerId } from './managed.js';
import { applyConfig, ConflictsError } from './updater.js';
import { validate, validationMessage } from './typed.js';

export interface ApplyOutcome {
  /** The object to store, managedFields included. */
  object: KubeObject;
  /** False when the apply changed neither the object nor its managed fields. */
  changed: boolean;
}

function gvk(apiVersion: unknown, kind: unknown): string {
  const gv = typeof apiVersion === 'string' ? apiVersion : '';
  const slash = gv.indexOf('/');
  const group = slash < 0 ? '' : gv.slice(0, slash);
  const version = slash < 0 ? gv : gv.slice(slash + 1);
  return `${group}/${version}, Kind=${typeof kind === 'string' ? kind : ''}`;
}

/** objectGVKNN: `namespace/name; group/version, Kind=K` of the applied object. */
function describe(config: JsonObject): string {
  const meta = isJsonObject(config['metadata']) ? config['metadata'] : {};
  const ns = typeof meta['namespace'] === 'string' ? meta['namespace'] : '';
  const name = typeof meta['name'] === 'string' ? meta['name'] : '';
  return `${ns}/${name}; ${gvk(config['apiVersion'], config['kind'])}`;
}

/**
 * Applies `config` over `live` (undefined: the object does not exist yet). `force` takes fields
 * from other managers instead of answering 409.
 */
export function applyManagedFields(
  ctx: KindContext,
  live: KubeObject | undefined,
  config: JsonObject,
  manager: string,
  force: boolean,
  now: string,
): ApplyOutcome {
  const decoded = decodeManaged(live?.metadata.managedFields);
  if (typeof decoded === 'string')
    throw new ApiError(500, '', `failed to decode managed fields: ${decoded}`);
  if (config['apiVersion'] !== ctx.apiVersion || config['kind'] !== ctx.kind)
    throw badRequest(`invalid object type: ${gvk(config['apiVersion'], config['kind'])}`);
  const meta = isJsonObject(config['metadata']) ? config['metadata'] : {};
  if (meta['managedFields'] !== undefined) throw badRequest('metadata.managedFields must be nil');
  const errors = validate(ctx.root, config);
  if (errors.length > 0)
    throw new ApiError(
      500,
      '',
      `failed to create typed patch object (${describe(config)}): ${validationMessage(errors)}`,
    );

  const liveValue = live ? withoutManagedFields(live) : {};
  const run = (forced: boolean): { object: JsonObject; managed: Managed; changed: boolean } => {
    let managed: Managed = { fields: new Map(decoded.fields), times: new Map(decoded.times) };
    // skipNonAppliedManager: whoever wrote an untracked object owns all of it before this apply.
    if (managed.fields.size === 0)
      managed = recordUpdate(ctx, ctx.zero, liveValue, managed, 'before-first-apply', now);
    const id = managerId({
      manager,
      operation: 'Apply',
      ...(ctx.subresource ? { subresource: ctx.subresource } : {}),
    });
    const result = applyConfig(ctx, liveValue, config, managed.fields, id, forced);
    stripMeta(result.managers, id);
    const times = new Map(managed.times);
    if (result.object) times.set(id, now);
    return {
      object: result.object ?? liveValue,
      managed: { fields: result.managers, times },
      changed: !!result.object,
    };
  };
  let outcome;
  try {
    outcome = run(force);
  } catch (error) {
    if (!(error instanceof ConflictsError)) throw error;
    // lastAppliedManager: kubectl moving from client-side apply may take what it applied before.
    const allowed = manager === 'kubectl' && live ? allowedConflicts(ctx, live) : undefined;
    const remaining = allowed
      ? error.conflicts.filter((c) => !allowed.has(c.path))
      : error.conflicts;
    if (remaining.length > 0) throw applyConflict(remaining);
    outcome = run(true);
  }
  let object = outcome.object as unknown as KubeObject;
  if (manager === 'kubectl' && lastAppliedAnnotation(object) !== undefined)
    object = syncLastApplied(object, config);
  const entries = encodeManaged(outcome.managed);
  const metadata = { ...object.metadata };
  if (entries) metadata.managedFields = entries;
  else delete metadata.managedFields;
  const stored = { ...object, metadata };
  const before = JSON.stringify(live?.metadata.managedFields ?? null);
  return { object: stored, changed: outcome.changed || before !== JSON.stringify(entries ?? null) };
}
