// The write path every client shares (HTTP handlers now, controllers later): name generation,
// namespace checks, defaulting, status-subresource rules, finalizers and graceful deletion.

import { randomUUID } from 'node:crypto';
import { ServiceAllocator } from './allocator.js';
import { admitDefaultTolerationSeconds } from './admission/default-toleration-seconds.js';
import { applyDefaults } from './defaults.js';
import { alreadyExists, ApiError, conflict, invalid, notFound } from '../apimachinery/errors.js';
import { fieldError, invalidObject, type FieldError } from '../apimachinery/field-errors.js';
import { strategyFor } from './strategies/index.js';
import type { GcOptions } from './deletion.js';
import { planDeletion } from './deletion.js';
import type { ResourceDef } from './resources.js';
import { resourceFor, resources } from './resources.js';
import type { ObjectStore } from '../store/store.js';
import type { KubeObject } from '../apimachinery/types.js';
import { asArray, asRecord, cloneJson } from '../apimachinery/types.js';

export interface DeleteContext {
  resource: ResourceDef;
  object: KubeObject;
  /** From DeleteOptions, else the object's own grace period (pods), else undefined. */
  gracePeriodSeconds: number | undefined;
}

/** 'graceful' keeps the object with a deletionTimestamp; someone must delete it later. */
export type DeleteDecision = 'now' | 'graceful';
export type DeleteHook = (ctx: DeleteContext) => DeleteDecision | undefined;

export interface WriteOptions {
  dryRun?: boolean;
  /** Writes to the status subresource change only `status`; others never change it. */
  subresource?: 'status' | undefined;
}

export interface DeleteOptions extends GcOptions {
  dryRun?: boolean;
  gracePeriodSeconds?: number | undefined;
  expectedRv?: string | undefined;
  expectedUid?: string | undefined;
}

export type { PropagationPolicy } from './deletion.js';

const nameAlphabet = 'bcdfghjklmnpqrstvwxz2456789';
const subdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
/** Kinds whose status the apiserver resets on create: their controllers own it. */
const statusResetOnCreate = new Set(['DaemonSet', 'Deployment']);

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
    if (!meta.name) {
      throw invalid(
        obj.kind,
        '',
        'metadata.name',
        'Required value: name or generateName is required',
      );
    }
    if (meta.name.length > 253 || !subdomain.test(meta.name)) {
      throw invalid(
        obj.kind,
        meta.name,
        'metadata.name',
        `Invalid value: "${meta.name}": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character`,
      );
    }
    if (!def.namespaced) delete meta.namespace;
    this.requireNamespace(def, meta.namespace);
    for (const field of [
      'uid',
      'resourceVersion',
      'deletionTimestamp',
      'deletionGracePeriodSeconds',
    ]) {
      delete meta[field];
    }
    if (statusResetOnCreate.has(obj.kind)) obj['status'] = {};
    if (obj.kind === 'Pod') obj['status'] = { phase: 'Pending' };
    applyDefaults(obj, this.allocator);
    admitDefaultTolerationSeconds(obj);
    const strategy = strategyFor(def);
    strategy.prepareForCreate?.(obj);
    this.check(def, obj, strategy.validate?.(obj) ?? []);
    if (options.dryRun) {
      if (this.store.get(def, meta.namespace, meta.name))
        throw alreadyExists(target(def, meta.name));
      return {
        ...obj,
        metadata: { ...meta, uid: randomUUID(), creationTimestamp: this.store.clock.timestamp() },
      };
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
      throw invalidObject(def.kind, def.group, name, [
        fieldError.required('metadata.resourceVersion', 'must be specified for an update'),
      ]);
    }
    if (expectedRv && expectedRv !== old.metadata.resourceVersion)
      throw conflict(target(def, name));
    let next: KubeObject;
    if (options.subresource === 'status') {
      next = { ...cloneJson(old), status: cloneJson(input['status'] ?? {}) };
    } else {
      next = cloneJson(input);
      if (def.subresources.includes('status')) {
        if (old['status'] === undefined) delete next['status'];
        else next['status'] = cloneJson(old['status']);
      }
      // Only a DELETE sets these; an update can neither set nor clear them.
      for (const field of ['deletionTimestamp', 'deletionGracePeriodSeconds']) {
        const value = old.metadata[field];
        if (value === undefined) delete next.metadata[field];
        else next.metadata[field] = value;
      }
      if (def.namespaced && old.metadata.namespace)
        next.metadata.namespace = old.metadata.namespace;
      else delete next.metadata.namespace;
      applyDefaults(next, this.allocator);
      admitDefaultTolerationSeconds(next);
      strategy.prepareForUpdate?.(next, old);
    }
    this.check(def, next, strategy.validateUpdate?.(next, old) ?? []);
    if (options.dryRun)
      return {
        ...next,
        metadata: { ...next.metadata, resourceVersion: old.metadata.resourceVersion ?? '' },
      };
    const finished =
      next.metadata.deletionTimestamp !== undefined &&
      asArray(next.metadata.finalizers).length === 0 &&
      (next.metadata.deletionGracePeriodSeconds ?? 0) === 0;
    const stored = this.store.update(def, next, { expectedRv: old.metadata.resourceVersion });
    return finished ? this.remove(def, stored) : stored;
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
      const list = byResource.get(def) ?? [];
      list.push(obj);
      byResource.set(def, list);
    }
    // Namespaces first, so every later bucket sees its namespace (order matters only for RVs).
    const ordered = [...byResource.entries()].sort(
      ([a], [b]) => Number(b.plural === 'namespaces') - Number(a.plural === 'namespaces'),
    );
    for (const [def, list] of ordered) this.store.load(def, list);
  }
}
