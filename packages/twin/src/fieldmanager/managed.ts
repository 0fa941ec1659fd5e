// metadata.managedFields on the wire and as managers (managedfields/internal/managedfields.go):
// an entry's identity is its manager, operation, apiVersion (Update only) and subresource; entries
// are written sorted by operation, time, manager, apiVersion and subresource.

import type { JsonObject, JsonValue } from '../apimachinery/types.js';
import { isJsonObject } from '../apimachinery/types.js';
import { fromFieldsV1, toFieldsV1 } from './fields-v1.js';
import type { ManagedFields } from './updater.js';

export type Operation = 'Apply' | 'Update';

export interface ManagerId {
  manager: string;
  operation: Operation;
  apiVersion?: string;
  subresource?: string;
}

export interface Managed {
  fields: ManagedFields;
  /** Manager identifier to the entry's time (RFC 3339, seconds). */
  times: Map<string, string>;
}

export function emptyManaged(): Managed {
  return { fields: new Map(), times: new Map() };
}

/** BuildManagerIdentifier: the entry as JSON without fields and time (Apply drops apiVersion). */
export function managerId(id: ManagerId): string {
  const out: JsonObject = {};
  if (id.manager !== '') out['manager'] = id.manager;
  out['operation'] = id.operation;
  if (id.operation === 'Update' && id.apiVersion) out['apiVersion'] = id.apiVersion;
  if (id.subresource) out['subresource'] = id.subresource;
  return JSON.stringify(out);
}

export function parseManagerId(id: string): ManagerId {
  const o = JSON.parse(id) as Partial<ManagerId>;
  return {
    manager: o.manager ?? '',
    operation: o.operation === 'Apply' ? 'Apply' : 'Update',
    ...(o.apiVersion ? { apiVersion: o.apiVersion } : {}),
    ...(o.subresource ? { subresource: o.subresource } : {}),
  };
}

/** DecodeManagedFields; a string is the reason the list is invalid. */
export function decodeManaged(entries: JsonValue | undefined): Managed | string {
  const managed = emptyManaged();
  if (entries === undefined || entries === null) return managed;
  if (!Array.isArray(entries)) return 'managedFields must be a list';
  for (const [i, raw] of entries.entries()) {
    const e = isJsonObject(raw) ? raw : {};
    const operation = e['operation'];
    if (operation !== 'Apply' && operation !== 'Update')
      return 'operation must be `Apply` or `Update`';
    const apiVersion = typeof e['apiVersion'] === 'string' ? e['apiVersion'] : '';
    if (apiVersion === '') return 'apiVersion must not be empty';
    const fieldsType = e['fieldsType'];
    if (fieldsType === undefined || fieldsType === '')
      return `missing fieldsType in managed fields entry ${i}`;
    if (fieldsType !== 'FieldsV1')
      return `invalid fieldsType ${JSON.stringify(fieldsType)} in managed fields entry ${i}`;
    const id = managerId({
      manager: typeof e['manager'] === 'string' ? e['manager'] : '',
      operation,
      apiVersion,
      ...(typeof e['subresource'] === 'string' ? { subresource: e['subresource'] } : {}),
    });
    try {
      managed.fields.set(id, {
        set: fromFieldsV1(e['fieldsV1']),
        apiVersion,
        applied: operation === 'Apply',
      });
    } catch (error) {
      return `error decoding versioned set: ${(error as Error).message}`;
    }
    const time = e['time'];
    if (typeof time === 'string') managed.times.set(id, time);
    else managed.times.delete(id);
  }
  return managed;
}

function seconds(time: string | undefined): number {
  return time === undefined ? 0 : Math.floor(Date.parse(time) / 1000);
}

/** encodeManagedFields: undefined when nobody manages anything (the field is then absent). */
export function encodeManaged(managed: Managed): JsonObject[] | undefined {
  if (managed.fields.size === 0) return undefined;
  const rows = [...managed.fields].map(([id, vs]) => {
    const m = parseManagerId(id);
    const entry: JsonObject = {};
    if (m.manager !== '') entry['manager'] = m.manager;
    entry['operation'] = vs.applied ? 'Apply' : 'Update';
    entry['apiVersion'] = vs.apiVersion;
    const time = managed.times.get(id);
    if (time !== undefined) entry['time'] = time;
    entry['fieldsType'] = 'FieldsV1';
    entry['fieldsV1'] = toFieldsV1(vs.set);
    if (m.subresource) entry['subresource'] = m.subresource;
    return { entry, operation: String(entry['operation']), time, m, apiVersion: vs.apiVersion };
  });
  const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
  rows.sort(
    (p, q) =>
      cmp(p.operation, q.operation) ||
      seconds(p.time) - seconds(q.time) ||
      cmp(p.m.manager, q.m.manager) ||
      cmp(p.apiVersion, q.apiVersion) ||
      cmp(p.m.subresource ?? '', q.m.subresource ?? ''),
  );
  return rows.map((r) => r.entry);
}

/** isResetManagedFields: `[]` or `[{}]` in a request clears the managed fields. */
export function isReset(entries: JsonValue | undefined): boolean {
  if (!Array.isArray(entries)) return false;
  if (entries.length === 0) return true;
  return entries.length === 1 && isJsonObject(entries[0]) && Object.keys(entries[0]).length === 0;
}
