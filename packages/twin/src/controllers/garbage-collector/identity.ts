// How the garbage collector names objects and reads their owner references: an identity is
// resource, namespace, name and uid (the GC's objectReference), and a reference resolves to its
// owner as isDangling does (pkg/controller/garbagecollector/garbagecollector.go).

import type { JsonObject, KubeObject } from '../../apimachinery/types.js';
import { asArray, asString, isJsonObject } from '../../apimachinery/types.js';
import type { ResourceDef } from '../../registry/resources.js';
import { findByKind, resourceFor } from '../../registry/resources.js';
import type { ObjectStore } from '../../store/store.js';

export interface Identity {
  plural: string;
  namespace: string;
  name: string;
  uid: string;
}

export function identityOf(def: ResourceDef, obj: KubeObject): Identity {
  return {
    plural: def.plural,
    namespace: def.namespaced ? (obj.metadata.namespace ?? '') : '',
    name: obj.metadata.name ?? '',
    uid: obj.metadata.uid ?? '',
  };
}

/** A work-queue key; uids never contain `|`, names and namespaces neither. */
export function keyOf(id: Identity): string {
  return `${id.plural}|${id.namespace}|${id.name}|${id.uid}`;
}

export function parseKey(key: string): Identity {
  const [plural = '', namespace = '', name = '', uid = ''] = key.split('|');
  return { plural, namespace, name, uid };
}

/** The live object an identity names, or undefined when it is gone or was recreated. */
export function live(store: ObjectStore, id: Identity): KubeObject | undefined {
  const obj = store.get(resourceFor(id.plural), id.namespace || undefined, id.name);
  return obj?.metadata.uid === id.uid ? obj : undefined;
}

const none: readonly JsonObject[] = [];

export function hasOwnerRefs(obj: KubeObject | undefined): boolean {
  const refs = obj?.metadata.ownerReferences;
  return Array.isArray(refs) && refs.length > 0;
}

export function ownerRefs(obj: KubeObject | undefined): readonly JsonObject[] {
  return hasOwnerRefs(obj) ? asArray(obj?.metadata.ownerReferences).filter(isJsonObject) : none;
}

export function hasFinalizer(obj: KubeObject, finalizer: string): boolean {
  return (obj.metadata.finalizers ?? []).includes(finalizer);
}

/**
 * The identity a reference names, seen from a dependent in `namespace`; undefined when the kind is
 * not served (the real GC cannot map it and retries forever, so the dependent is left alone) or
 * a cluster-scoped dependent names a namespaced owner (invalid, also left alone).
 */
export function ownerIdentity(ref: JsonObject, namespace: string): Identity | undefined {
  const def = findByKind(asString(ref['apiVersion']), asString(ref['kind']));
  if (!def || (def.namespaced && namespace === '')) return undefined;
  return {
    plural: def.plural,
    namespace: def.namespaced ? namespace : '',
    name: asString(ref['name']),
    uid: asString(ref['uid']),
  };
}
