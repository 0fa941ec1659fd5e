// JSON patch (RFC 6902), what `kubectl patch --type json` and client-node's default patch send.
// Failures throw JsonPatchError; the API layer turns them into 422 Invalid like the apiserver.

import type { JsonValue } from './types.js';
import { deepEqual, isJsonObject } from './types.js';

export class JsonPatchError extends Error {}

type Container = JsonValue[] | { [key: string]: JsonValue };

function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new JsonPatchError(`invalid JSON pointer "${pointer}"`);
  return pointer
    .slice(1)
    .split('/')
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function arrayIndex(arr: JsonValue[], token: string, forInsert: boolean): number {
  if (forInsert && token === '-') return arr.length;
  if (!/^(0|[1-9]\d*)$/.test(token)) throw new JsonPatchError(`invalid array index "${token}"`);
  const index = Number(token);
  if (index > arr.length || (!forInsert && index === arr.length)) {
    throw new JsonPatchError(`array index ${index} out of bounds`);
  }
  return index;
}

function child(node: JsonValue | undefined, token: string, path: string): JsonValue {
  if (Array.isArray(node)) {
    const v = node[arrayIndex(node, token, false)];
    if (v !== undefined) return v;
  } else if (isJsonObject(node) && Object.prototype.hasOwnProperty.call(node, token)) {
    const v = node[token];
    if (v !== undefined) return v;
  }
  throw new JsonPatchError(`doc is missing path: "${path}"`);
}

function resolveParent(doc: JsonValue, path: string): { parent: Container; token: string } {
  const tokens = parsePointer(path);
  const token = tokens.pop();
  if (token === undefined)
    throw new JsonPatchError('the root cannot be the target of this operation');
  let node: JsonValue = doc;
  for (const t of tokens) node = child(node, t, path);
  if (!Array.isArray(node) && !isJsonObject(node))
    throw new JsonPatchError(`doc is missing path: "${path}"`);
  return { parent: node, token };
}

function get(doc: JsonValue, path: string): JsonValue {
  let node: JsonValue = doc;
  for (const t of parsePointer(path)) node = child(node, t, path);
  return node;
}

function add(doc: JsonValue, path: string, value: JsonValue): JsonValue {
  if (path === '') return value;
  const { parent, token } = resolveParent(doc, path);
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, token, true), 0, value);
  else parent[token] = value;
  return doc;
}

function remove(doc: JsonValue, path: string): JsonValue {
  const { parent, token } = resolveParent(doc, path);
  if (Array.isArray(parent)) {
    parent.splice(arrayIndex(parent, token, false), 1);
  } else {
    if (!Object.prototype.hasOwnProperty.call(parent, token)) {
      throw new JsonPatchError(`unable to remove nonexistent key: ${token}: missing value`);
    }
    delete parent[token];
  }
  return doc;
}

function operation(
  op: unknown,
  index: number,
): { op: string; path: string; from?: string; value?: JsonValue } {
  if (!isJsonObject(op) || typeof op['op'] !== 'string' || typeof op['path'] !== 'string') {
    throw new JsonPatchError(`operation ${index} must be an object with string "op" and "path"`);
  }
  const out: { op: string; path: string; from?: string; value?: JsonValue } = {
    op: op['op'],
    path: op['path'],
  };
  if (typeof op['from'] === 'string') out.from = op['from'];
  if (Object.prototype.hasOwnProperty.call(op, 'value')) out.value = op['value'] ?? null;
  return out;
}

/** Applies the operations in order to a copy of `doc`; all-or-nothing, as RFC 6902 requires. */
export function applyJsonPatch(doc: JsonValue, ops: unknown): JsonValue {
  if (!Array.isArray(ops)) throw new JsonPatchError('a JSON patch must be an array of operations');
  let result = structuredClone(doc);
  ops.forEach((raw, index) => {
    const op = operation(raw, index);
    const needValue = (): JsonValue => {
      if (op.value === undefined)
        throw new JsonPatchError(`operation ${index} (${op.op}) needs a value`);
      return structuredClone(op.value);
    };
    const needFrom = (): string => {
      if (op.from === undefined)
        throw new JsonPatchError(`operation ${index} (${op.op}) needs "from"`);
      return op.from;
    };
    switch (op.op) {
      case 'add':
        result = add(result, op.path, needValue());
        break;
      case 'remove':
        result = remove(result, op.path);
        break;
      case 'replace':
        get(result, op.path);
        result = op.path === '' ? needValue() : add(remove(result, op.path), op.path, needValue());
        break;
      case 'move': {
        const from = needFrom();
        const value = get(result, from);
        result = add(remove(result, from), op.path, value);
        break;
      }
      case 'copy':
        result = add(result, op.path, structuredClone(get(result, needFrom())));
        break;
      case 'test':
        if (!deepEqual(get(result, op.path), needValue())) {
          throw new JsonPatchError(`testing value ${op.path} failed: test failed`);
        }
        break;
      default:
        throw new JsonPatchError(`Unexpected kind: ${op.op}`);
    }
  });
  return result;
}
