// What the field manager needs to know of a kind: its schema root (or the deduced type when it
// has none), its zero object, and the reset fields of the endpoint written to.

import type { JsonObject, JsonValue } from '../apimachinery/types.js';
import { kindSchema } from '../schema/index.js';
import type { MapNode, SchemaNode } from '../schema/types.js';
import { FieldSet } from './field-set.js';
import type { UpdaterOptions } from './updater.js';

const deducedRoot: MapNode = { kind: 'map', values: { kind: 'deduced' }, atomic: false };

export interface KindContext extends UpdaterOptions {
  kind: string;
  /** The zero value Go decodes into, the baseline of a create. */
  zero: JsonObject;
  subresource: string | undefined;
  custom: boolean;
}

/**
 * The fields Go's encoder emits for a zero value: structs as objects (so a create does not mark
 * them as new nodes), the rest as null. Simplified: a write that sets such a scalar to its zero
 * value owns it here, where Go would see no change.
 */
function zeroOf(node: SchemaNode): JsonValue {
  if (node.kind === 'map' && node.fields) {
    const out: JsonObject = {};
    for (const [name, def] of Object.entries(node.fields)) {
      if (!def.zero) continue;
      out[name] = def.type.kind === 'map' && def.type.fields ? zeroOf(def.type) : null;
    }
    return out;
  }
  return null;
}

const zeros = new Map<MapNode, JsonObject>();

function pathSet(paths: readonly string[]): FieldSet {
  return FieldSet.of(...paths.map((p) => p.split('.').map((field) => ({ field }))));
}

export function kindContext(apiVersion: string, kind: string, subresource?: string): KindContext {
  const schema = kindSchema(apiVersion, kind);
  const root = schema?.root ?? deducedRoot;
  let zero = zeros.get(root);
  if (!zero) {
    zero = schema?.custom ? {} : (zeroOf(root) as JsonObject);
    zeros.set(root, zero);
  }
  const reset = subresource === 'status' ? schema?.statusResetFields : schema?.resetFields;
  return {
    kind,
    root,
    apiVersion,
    zero,
    subresource,
    custom: schema?.custom ?? false,
    ignore: pathSet(reset ?? []),
  };
}
