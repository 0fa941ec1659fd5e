// The write path every client shares (HTTP handlers now, controllers later): name generation,
// namespace checks, defaulting, status-subresource rules, finalizers and graceful deletion.

import { randomUUID } from 'node:crypto';
import { ServiceAllocator } from './allocator.js';
import { admitDefaultTolerationSeconds } from './admission/default-toleration-seconds.js';
import { applyDefaults } from './defaults.js';
import { alreadyExists, ApiError, conflict, notFound } from '../apimachinery/errors.js';
import { fieldError, invalidObject, type FieldError } from '../apimachinery/field-errors.js';
import { GoValue } from '../apimachinery/go-value.js';
import { pathSegmentName } from './validation/names.js';
import { validateObjectMeta, validateObjectMetaUpdate } from './validation/object-meta.js';
import { strategyFor } from './strategies/index.js';
import { fromView, storageOf } from './event-views.js';
import type { TrackOptions } from './track-fields.js';
import { trackFields } from './track-fields.js';
import type { GcOptions } from './deletion.js';
import { planDeletion } from './deletion.js';
import type { ResourceDef } from './resources.js';
import { resourceFor, resources } from './resources.js';
import type { ObjectStore } from '../store/store.js';
import type { KubeObject } from '../apimachinery/types.js';
import { asArray, asRecord, cloneJson, deepEqual, omit } from '../apimachinery/types.js';

export interface DeleteContext {
  resource: ResourceDef;
  object: KubeObject;
  /** From DeleteOptions, else the object's own grace period (pods), else undefined. */
  gracePeriodSeconds: number | undefined;
}

/** 'graceful' keeps the object with a deletionTimestamp; someone must delete it later. */
export type DeleteDecision = 'now' | 'graceful';
export type DeleteHook = (ctx: DeleteContext) => DeleteDecision | undefined;

export interface WriteOptions extends TrackOptions {
  dryRun?: boolean;
  /** Writes to the status subresource change only `status`; others never change it. */
  subresource?: 'status' | undefined;
  /** Who writes: recorded in metadata.managedFields as an Update; undefined leaves them as sent. */
  manager?: string | undefined;
  /** The object already carries the managedFields a server-side apply computed. */
  applied?: boolean;
  /** The view the client wrote through (events.k8s.io Events), whose shape managedFields track. */
  view?: ResourceDef | undefined;
}

export interface DeleteOptions extends GcOptions {
  dryRun?: boolean;
  gracePeriodSeconds?: number | undefined;
  expectedRv?: string | undefined;
  expectedUid?: string | undefined;
}

export type { PropagationPolicy } from './deletion.js';

const nameAlphabet = 'bcdfghjklmnpqrstvwxz2456789';

function generatedName(prefix: string): string {
  let suffix = '';
  for (let i = 0; i < 5; i += 1)
    suffix += nameAlphabet[Math.floor(Math.random() * nameAlphabet.length)] ?? 'x';
  return prefix + suffix;
}

function target(def: ResourceDef, name: string): { resource: string; group: string; name: string } {
  return { resource: def.plural, group: def.group, name };
}

export class Registry {
  readonly allocator = new ServiceAllocator();
  private readonly deleteHooks = new Set<DeleteHook>();

  constructor(readonly store: ObjectStore) {}

  /** Lets later phases (pod lifecycle) keep deleted objects around while they terminate. */
  onDelete(hook: DeleteHook): () => void {
    this.deleteHooks.add(hook);
    return () => this.deleteHooks.delete(hook);
  }

  private requireNamespace(def: ResourceDef, namespace: string | undefined): void {
    if (!def.namespaced) return;
    if (!this.store.get(resourceFor('namespaces'), undefined, namespace ?? '')) {
      throw notFound({ resource: 'namespaces', group: '', name: namespace ?? '' });
    }
  }

  create(def: ResourceDef, input: KubeObject, options: WriteOptions = {}): KubeObject {
    const obj = cloneJson(input);
    const meta = obj.metadata;
    if (!meta.name && meta.generateName) meta.name = generatedName(meta.generateName);
    if (!def.namespaced) delete meta.namespace;
    this.requireNamespace(def, meta.namespace);
    for (const field of ['resourceVersion', 'deletionTimestamp', 'deletionGracePeriodSeconds'])
      delete meta[field];
    // FillObjectMetaSystemFields runs before validation, so a dry run answers with them too.
    meta.uid = randomUUID();
    meta.creationTimestamp = this.store.clock.timestamp();
    if (def.hasGeneration) meta.generation = 1;
    else delete meta.generation;
    applyDefaults(obj, this.allocator);
    trackFields(def, undefined, obj, options, meta.creationTimestamp);
    // Mutating admission runs after the field manager (create.go), so its changes have no owner.
    admitDefaultTolerationSeconds(obj);
    const strategy = strategyFor(def);
    strategy.prepareForCreate?.(obj);
    // rest.BeforeCreate: the kind's rules first, then (only if they pass) the generic ObjectMeta ones.
    this.check(def, obj, strategy.validate?.(obj) ?? []);
    this.check(def, obj, validateObjectMeta(meta, def.namespaced, pathSegmentName));
    if (options.dryRun) {
      if (this.store.get(def, meta.namespace, meta.name ?? ''))
        throw alreadyExists(target(def, meta.name ?? ''));
      return obj;
    }
    return this.store.create(def, obj);
  }

  /** PUT semantics: `expectedRv` (the body's resourceVersion, if any) must match the stored one. */
  update(
    def: ResourceDef,
    input: KubeObject,
    expectedRv: string | undefined,
    options: WriteOptions = {},
  ): KubeObject {
    const name = input.metadata.name ?? '';
    const strategy = strategyFor(def);
    const old = this.store.get(def, input.metadata.namespace, name);
    if (!old) {
      if (strategy.allowCreateOnUpdate && options.subresource === undefined)
        return this.create(def, input, options);
      throw notFound(target(def, name));
    }
    if (!expectedRv && strategy.allowUnconditionalUpdate === false) {
      // The generic store names the resource, not the kind, and prints the uint64 0 with %#v.
      throw invalidObject(def.plural, def.group, name, [
        fieldError.invalid(
          'metadata.resourceVersion',
          new GoValue('0x0'),
          'must be specified for an update',
        ),
      ]);
    }
    if (expectedRv && expectedRv !== old.metadata.resourceVersion)
      throw conflict(target(def, name));
    const next =
      options.subresource === 'status'
        ? this.statusUpdate(def, old, input, options)
        : this.mainUpdate(def, old, input, options);
    next.metadata.resourceVersion = old.metadata.resourceVersion ?? '';
    // rest.BeforeUpdate: the generic ObjectMeta rules, then the (status) strategy's own.
    const errors = [
      ...validateObjectMeta(next.metadata, def.namespaced, pathSegmentName),
      ...validateObjectMetaUpdate(next.metadata, old.metadata),
      ...((options.subresource === 'status'
        ? strategy.validateStatusUpdate?.(next, old)
        : strategy.validateUpdate?.(next, old)) ?? []),
    ];
    this.check(def, next, errors);
    if (options.dryRun) return next;
    const finished =
      next.metadata.deletionTimestamp !== undefined &&
      asArray(next.metadata.finalizers).length === 0 &&
      (next.metadata.deletionGracePeriodSeconds ?? 0) === 0;
    const stored = this.store.update(def, next, { expectedRv: old.metadata.resourceVersion });
    return finished ? this.remove(def, stored) : stored;
  }

  /**
   * pods/binding as the scheduler uses it (pkg/registry/core/pod/storage BindingREST): sets
   * spec.nodeName on an unbound pod, which the pod update rules would forbid.
   */
  bind(namespace: string | undefined, name: string, nodeName: string): KubeObject {
    const def = resourceFor('pods');
    const pod = this.store.get(def, namespace, name);
    if (!pod) throw notFound(target(def, name));
    const bound = asRecord(pod['spec'])['nodeName'];
    if (typeof bound === 'string' && bound !== '')
      throw new ApiError(
        409,
        'Conflict',
        `pod ${name} is already assigned to node ${JSON.stringify(bound)}`,
      );
    const next = cloneJson(pod);
    next['spec'] = { ...asRecord(next['spec']), nodeName };
    return this.store.update(def, next, { expectedRv: pod.metadata.resourceVersion });
  }

  /** A status write changes only `status` (the twin ignores its metadata and spec). */
  private statusUpdate(
    def: ResourceDef,
    old: KubeObject,
    input: KubeObject,
    options: WriteOptions,
  ): KubeObject {
    // Only metadata fields are reassigned (resourceVersion, managedFields) and the store copies
    // what it keeps, so the rest of the stored object is shared rather than deep-copied: the
    // kubelet's status writes are the boot's most frequent write.
    const next = {
      ...old,
      metadata: { ...old.metadata },
      status: cloneJson(input['status'] ?? {}),
    };
    trackFields(def, old, next, options, this.store.clock.timestamp(), input);
    return next;
  }

  /** What BeforeUpdate and the strategy keep from the stored object before validating. */
  private mainUpdate(
    def: ResourceDef,
    old: KubeObject,
    input: KubeObject,
    options: WriteOptions,
  ): KubeObject {
    const next = cloneJson(input);
    const meta = next.metadata;
    if (def.subresources.includes('status')) {
      if (old['status'] === undefined) delete next['status'];
      else next['status'] = cloneJson(old['status']);
    }
    if (def.namespaced && old.metadata.namespace) meta.namespace = old.metadata.namespace;
    else delete meta.namespace;
    // Requests cannot set generation, uid, creationTimestamp or clear deletion fields.
    if (old.metadata.generation === undefined) delete meta.generation;
    else meta.generation = old.metadata.generation;
    if (!meta.uid && old.metadata.uid) meta.uid = old.metadata.uid;
    if (old.metadata.creationTimestamp) meta.creationTimestamp = old.metadata.creationTimestamp;
    if (old.metadata.deletionTimestamp !== undefined)
      meta.deletionTimestamp = old.metadata.deletionTimestamp;
    if (
      old.metadata.deletionGracePeriodSeconds !== undefined &&
      meta.deletionGracePeriodSeconds === undefined
    )
      meta.deletionGracePeriodSeconds = old.metadata.deletionGracePeriodSeconds;
    applyDefaults(next, this.allocator);
    trackFields(def, old, next, options, this.store.clock.timestamp());
    // update.go's transformers: the field manager, then mutating admission (not for subresources).
    admitDefaultTolerationSeconds(next);
    const strategy = strategyFor(def);
    if (strategy.prepareForUpdate) strategy.prepareForUpdate(next, old);
    else if (
      def.hasGeneration &&
      !deepEqual(omit(old, 'metadata', 'status'), omit(next, 'metadata', 'status'))
    )
      meta.generation = (old.metadata.generation ?? 1) + 1;
    return next;
  }

  delete(
    def: ResourceDef,
    namespace: string | undefined,
    name: string,
    options: DeleteOptions = {},
  ): KubeObject {
    const obj = this.store.get(def, namespace, name);
    if (!obj) throw notFound(target(def, name));
    if (options.expectedRv && options.expectedRv !== obj.metadata.resourceVersion)
      throw conflict(target(def, name));
    if (options.expectedUid && options.expectedUid !== obj.metadata.uid) {
      throw new ApiError(
        409,
        'Conflict',
        `Precondition failed: UID in precondition: ${options.expectedUid}, UID in object meta: ${obj.metadata.uid ?? ''}`,
      );
    }
    const graceful = (grace: number): boolean => {
      let answer = false;
      for (const hook of this.deleteHooks)
        if (hook({ resource: def, object: obj, gracePeriodSeconds: grace }) === 'graceful')
          answer = true;
      return answer;
    };
    const plan = planDeletion(def, obj, options, this.store.clock.now(), graceful);
    if (plan.kind === 'pending') return obj;
    if (plan.kind === 'remove') return options.dryRun ? obj : this.remove(def, obj);
    if (options.dryRun) return plan.marked;
    return this.store.update(def, plan.marked, { bumpGeneration: plan.bumpGeneration });
  }

  /** Turns a strategy's field errors into the 422 Invalid the apiserver answers with. */
  private check(def: ResourceDef, obj: KubeObject, errors: readonly FieldError[]): void {
    if (errors.length > 0)
      throw invalidObject(def.kind, def.group, obj.metadata.name ?? '', errors);
  }

  private remove(def: ResourceDef, obj: KubeObject): KubeObject {
    const gone = this.store.delete(def, obj.metadata.namespace, obj.metadata.name ?? '');
    if (def.plural === 'services') {
      const spec = asRecord(gone['spec']);
      this.allocator.release(
        spec['clusterIP'],
        asArray(spec['ports']).map((p) => asRecord(p)['nodePort']),
      );
    }
    if (def.plural === 'namespaces') {
      // Phase 1 empties a namespace at once instead of modelling the Terminating phase.
      for (const r of resources) {
        if (!r.namespaced) continue;
        for (const item of this.store.list(r, { namespace: gone.metadata.name }).items) {
          this.store.delete(r, item.metadata.namespace, item.metadata.name ?? '');
        }
      }
    }
    return gone;
  }

  /** Loads scenario objects: defaults and allocations as on create, but no events and no checks. */
  seed(objects: readonly KubeObject[]): void {
    for (const obj of objects) {
      if (obj.kind !== 'Service') continue;
      const spec = asRecord(obj['spec']);
      this.allocator.reserveIp(spec['clusterIP']);
      for (const p of asArray(spec['ports']))
        this.allocator.reserveNodePort(asRecord(p)['nodePort']);
    }
    const byResource = new Map<ResourceDef, KubeObject[]>();
    for (const obj of objects) {
      const def = resources.find(
        (r) =>
          r.kind === obj.kind &&
          (r.group === '' ? r.version : `${r.group}/${r.version}`) === obj.apiVersion,
      );
      if (!def) continue;
      applyDefaults(obj, this.allocator);
      // Scenario pods stand for pods a real apiserver admitted: they carry its tolerations too.
      admitDefaultTolerationSeconds(obj);
      strategyFor(def).prepareForSeed?.(obj);
      // events.k8s.io/v1 Events are kept as the core Events they are a view of.
      const list = byResource.get(storageOf(def)) ?? [];
      list.push(fromView(def, obj));
      byResource.set(storageOf(def), list);
    }
    // Namespaces first, so every later bucket sees its namespace (order matters only for RVs).
    const ordered = [...byResource.entries()].sort(
      ([a], [b]) => Number(b.plural === 'namespaces') - Number(a.plural === 'namespaces'),
    );
    for (const [def, list] of ordered) this.store.load(def, list);
  }
}
