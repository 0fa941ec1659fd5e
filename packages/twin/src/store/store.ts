// The twin's etcd: objects per resource keyed by namespace/name, one global resourceVersion,
// optimistic concurrency, and a change feed that watches and (later) controllers consume.

import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.js';
import { alreadyExists, conflict, notFound } from '../apimachinery/errors.js';
import type { ChangeEvent, ChangeType } from './event-history.js';
import { EventHistory } from './event-history.js';
import type { ResourceDef } from '../registry/resources.js';
import { compareKeys, insertSorted, lowerBound, removeSorted, upperBound } from './sorted-keys.js';
import type { KubeObject } from '../apimachinery/types.js';
import { deepEqual, omit } from '../apimachinery/types.js';

export type { ChangeEvent, ChangeType } from './event-history.js';
export type ChangeListener = (event: ChangeEvent) => void;

interface Bucket {
  objects: Map<string, KubeObject>;
  keys: string[];
}

export interface ListQuery {
  namespace?: string | undefined;
  /** Return only keys strictly after this one (the continue position). */
  after?: string | undefined;
  limit?: number | undefined;
  match?: ((obj: KubeObject) => boolean) | undefined;
}

export interface ListPage {
  items: KubeObject[];
  /** Key of the last item returned, to encode into a continue token. */
  lastKey: string | undefined;
  hasMore: boolean;
  /** Items left after this page; only known without a filter, as in the real apiserver. */
  remaining: number | undefined;
}

export interface WriteOptions {
  /** When set, the write fails with 409 Conflict unless the stored object has this RV. */
  expectedRv?: string | undefined;
  /** Bump metadata.generation even without a spec change (the first deletion mark does). */
  bumpGeneration?: boolean | undefined;
}

export function objectKey(namespace: string | undefined, name: string): string {
  return namespace ? `${namespace}/${name}` : name;
}

export function keyOf(obj: KubeObject): string {
  return objectKey(obj.metadata.namespace, obj.metadata.name ?? '');
}

/** Everything but metadata and status: what counts as a spec change for metadata.generation. */
function specPart(obj: KubeObject): Record<string, unknown> {
  return omit(obj, 'metadata', 'status');
}

function targetOf(
  def: ResourceDef,
  name: string,
): { resource: string; group: string; name: string } {
  return { resource: def.plural, group: def.group, name };
}

export class ObjectStore {
  private readonly buckets = new Map<string, Bucket>();
  private readonly listeners = new Set<ChangeListener>();
  private rv = 1;
  private history: EventHistory;

  constructor(
    readonly clock: Clock,
    private readonly historyLimit = 20_000,
  ) {
    this.history = new EventHistory(historyLimit, this.rv);
  }

  /** The resourceVersion of the latest write, as lists report it. */
  get resourceVersion(): number {
    return this.rv;
  }

  get compactedResourceVersion(): number {
    return this.history.compactedRv;
  }

  private bucket(def: ResourceDef): Bucket {
    let b = this.buckets.get(def.plural);
    if (!b) {
      b = { objects: new Map(), keys: [] };
      this.buckets.set(def.plural, b);
    }
    return b;
  }

  get(def: ResourceDef, namespace: string | undefined, name: string): KubeObject | undefined {
    return this.bucket(def).objects.get(objectKey(def.namespaced ? namespace : undefined, name));
  }

  count(def: ResourceDef, namespace?: string): number {
    const b = this.bucket(def);
    if (!namespace) return b.keys.length;
    return lowerBound(b.keys, `${namespace}0`) - lowerBound(b.keys, `${namespace}/`);
  }

  /** Objects in key order: the whole resource, or one namespace, from a position, filtered. */
  list(def: ResourceDef, query: ListQuery = {}): ListPage {
    const b = this.bucket(def);
    const prefix = def.namespaced && query.namespace ? `${query.namespace}/` : '';
    let start = prefix ? lowerBound(b.keys, prefix) : 0;
    if (query.after !== undefined) start = Math.max(start, upperBound(b.keys, query.after));
    const end = prefix ? lowerBound(b.keys, `${query.namespace}0`) : b.keys.length;
    const limit = query.limit && query.limit > 0 ? query.limit : Infinity;
    const items: KubeObject[] = [];
    let i = start;
    let lastKey: string | undefined;
    for (; i < end && items.length < limit; i += 1) {
      const key = b.keys[i] ?? '';
      const obj = b.objects.get(key);
      if (obj && (!query.match || query.match(obj))) {
        items.push(obj);
        lastKey = key;
      }
    }
    let hasMore = false;
    for (let j = i; j < end && items.length === limit; j += 1) {
      const obj = b.objects.get(b.keys[j] ?? '');
      if (obj && (!query.match || query.match(obj))) {
        hasMore = true;
        break;
      }
    }
    const remaining = hasMore && !query.match ? end - i : undefined;
    return { items, lastKey: hasMore ? lastKey : undefined, hasMore, remaining };
  }

  /** Inserts scenario objects without events; they keep any uid/RV/timestamp they carry. */
  load(def: ResourceDef, objects: readonly KubeObject[]): void {
    const b = this.bucket(def);
    for (const source of objects) {
      const obj = structuredClone(source);
      const meta = obj.metadata;
      meta.uid ??= randomUUID();
      meta.creationTimestamp ??= this.clock.timestamp();
      const given = Number(meta.resourceVersion);
      if (Number.isInteger(given) && given > 0) {
        this.rv = Math.max(this.rv, given);
      } else {
        this.rv += 1;
        meta.resourceVersion = String(this.rv);
      }
      if (def.hasGeneration) meta.generation ??= 1;
      const key = keyOf(obj);
      if (!b.objects.has(key)) b.keys.push(key);
      b.objects.set(key, obj);
    }
    b.keys.sort(compareKeys);
    // Nothing before the load can be replayed: watches from an older RV get 410.
    this.history = new EventHistory(this.historyLimit, this.rv);
  }

  create(def: ResourceDef, source: KubeObject): KubeObject {
    const b = this.bucket(def);
    const key = keyOf(source);
    if (b.objects.has(key)) throw alreadyExists(targetOf(def, source.metadata.name ?? ''));
    const obj = structuredClone(source);
    this.rv += 1;
    const meta = obj.metadata;
    meta.uid = randomUUID();
    meta.resourceVersion = String(this.rv);
    meta.creationTimestamp = this.clock.timestamp();
    if (def.hasGeneration) meta.generation = 1;
    else delete meta.generation;
    b.objects.set(key, obj);
    insertSorted(b.keys, key);
    this.emit('ADDED', def, obj, undefined);
    return obj;
  }

  /**
   * Replaces a stored object. Identity fields (uid, creationTimestamp) are kept from the stored
   * copy; an update that changes nothing returns the stored object without a new RV, as etcd does.
   */
  update(def: ResourceDef, source: KubeObject, options: WriteOptions = {}): KubeObject {
    const b = this.bucket(def);
    const key = keyOf(source);
    const old = b.objects.get(key);
    const name = source.metadata.name ?? '';
    if (!old) throw notFound(targetOf(def, name));
    if (options.expectedRv !== undefined && options.expectedRv !== old.metadata.resourceVersion) {
      throw conflict(targetOf(def, name));
    }
    const obj = structuredClone(source);
    const meta = obj.metadata;
    meta.uid = old.metadata.uid ?? randomUUID();
    meta.creationTimestamp = old.metadata.creationTimestamp ?? this.clock.timestamp();
    meta.resourceVersion = old.metadata.resourceVersion ?? '0';
    if (def.hasGeneration) {
      const gen = old.metadata.generation ?? 1;
      const same = !options.bumpGeneration && deepEqual(specPart(old), specPart(obj));
      meta.generation = same ? gen : gen + 1;
    } else if (old.metadata.generation === undefined) {
      delete meta.generation;
    } else {
      meta.generation = old.metadata.generation;
    }
    if (deepEqual(old, obj)) return old;
    this.rv += 1;
    meta.resourceVersion = String(this.rv);
    b.objects.set(key, obj);
    this.emit('MODIFIED', def, obj, old);
    return obj;
  }

  delete(
    def: ResourceDef,
    namespace: string | undefined,
    name: string,
    options: WriteOptions = {},
  ): KubeObject {
    const b = this.bucket(def);
    const key = objectKey(def.namespaced ? namespace : undefined, name);
    const old = b.objects.get(key);
    if (!old) throw notFound(targetOf(def, name));
    if (options.expectedRv !== undefined && options.expectedRv !== old.metadata.resourceVersion) {
      throw conflict(targetOf(def, name));
    }
    b.objects.delete(key);
    removeSorted(b.keys, key);
    this.rv += 1;
    const gone = { ...old, metadata: { ...old.metadata, resourceVersion: String(this.rv) } };
    this.emit('DELETED', def, gone, old);
    return gone;
  }

  /** Subscribes to every change; returns the unsubscribe function. */
  subscribe(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Changes after `rv` still in the history, or undefined when the RV is too old (410). */
  changesSince(rv: number): ChangeEvent[] | undefined {
    return this.history.since(rv);
  }

  /** Drops history up to now, as an etcd compaction does: older watch RVs and tokens expire. */
  compact(): void {
    this.history.compact(this.rv);
  }

  private emit(
    type: ChangeType,
    def: ResourceDef,
    object: KubeObject,
    oldObject: KubeObject | undefined,
  ): void {
    const event: ChangeEvent = { type, resource: def, object, oldObject, rv: this.rv };
    this.history.append(event);
    for (const listener of [...this.listeners]) listener(event);
  }
}
