// The pods/eviction subresource (pkg/registry/core/pod/storage/eviction.go): a pod that already
// caused its disruption (terminal, Pending, terminating) is deleted at once; otherwise the one
// PodDisruptionBudget that selects it must allow a disruption, which the eviction then spends
// (checkAndDecrement) before the pod gets its DisruptionTarget condition and is deleted.

import { ApiError, notFound } from '../../apimachinery/errors.js';
import type { JsonObject, KubeObject } from '../../apimachinery/types.js';
import {
  asArray,
  asNumber,
  asRecord,
  asString,
  cloneJson,
  deepEqual,
  isJsonObject,
} from '../../apimachinery/types.js';
import { deleteOptionsFromObject } from '../delete-options.js';
import type { DeleteOptions, Registry } from '../registry.js';
import { resourceFor } from '../resources.js';
import { decremented, pdbSelects } from './budget-status.js';

/** The loopback client's User-Agent prefix (controllers/managers.ts apiServerManager). */
const loopbackManager = 'kube-apiserver';

const pods = resourceFor('pods');
const pdbs = resourceFor('poddisruptionbudgets');

/** MaxDisruptedPodSize: past this many unconfirmed evictions the budget refuses more. */
const maxDisruptedPods = 2000;

const success: JsonObject = {
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Success',
  code: 201,
};

function tooManyRequests(message: string, cause: string, retryAfterSeconds: number): ApiError {
  return new ApiError(429, 'TooManyRequests', message, {
    causes: [{ reason: 'DisruptionBudget', message: cause }],
    ...(retryAfterSeconds > 0 ? { retryAfterSeconds } : {}),
  });
}

const violates = "Cannot evict pod as it would violate the pod's disruption budget.";

/** createTooManyRequestsError: the budget's status is behind its spec; clients retry in 10 s. */
const stillProcessing = (name: string): ApiError =>
  tooManyRequests(
    violates,
    `The disruption budget ${name} is still being processed by the server.`,
    10,
  );

function forbidden(name: string, why: string): ApiError {
  return new ApiError(
    403,
    'Forbidden',
    `poddisruptionbudget.policy "${name}" is forbidden: ${why}`,
    { name, group: 'policy', kind: 'poddisruptionbudget' },
  );
}

function phase(pod: KubeObject): string {
  return asString(asRecord(pod['status'])['phase']);
}

function isReady(pod: KubeObject): boolean {
  return asArray(asRecord(pod['status'])['conditions'])
    .filter(isJsonObject)
    .some((c) => c['type'] === 'Ready' && c['status'] === 'True');
}

export interface EvictionRequest {
  /** The decoded Eviction body (metadata and optional deleteOptions). */
  eviction: JsonObject;
  /** The request's `dryRun` query values (CreateOptions). */
  dryRun: readonly string[];
}

/** propagateDryRun: the query's dryRun and the body's must agree when both are given. */
function deleteOptionsOf(request: EvictionRequest): { options: DeleteOptions; dryRun: string[] } {
  const body = request.eviction['deleteOptions'];
  const parsed = deleteOptionsFromObject(isJsonObject(body) ? body : {});
  let dryRun = parsed.dryRunValues;
  if (dryRun.length === 0) dryRun = [...request.dryRun];
  else if (request.dryRun.length > 0 && !deepEqual(dryRun, request.dryRun)) {
    // A plain fmt.Errorf: the handler answers 500 with StatusReasonUnknown (no reason field).
    throw new ApiError(
      500,
      '',
      `Non-matching dry-run options in request and content: [${request.dryRun.join(' ')}] and [${dryRun.join(' ')}]`,
    );
  }
  const { dryRunValues: _values, ...options } = parsed;
  return { options: { ...options, dryRun: dryRun.length > 0 }, dryRun };
}

/** POST pods/<name>/eviction: the Status to answer with (201), or an ApiError. */
export function evictPod(
  registry: Registry,
  namespace: string,
  name: string,
  request: EvictionRequest,
): JsonObject {
  const { options } = deleteOptionsOf(request);
  const pod = registry.store.get(pods, namespace, name);
  if (!pod) throw notFound({ resource: 'pods', group: '', name });
  const rvUnset = options.expectedRv === undefined;
  const terminating = pod.metadata.deletionTimestamp !== undefined;
  const terminal = phase(pod) === 'Succeeded' || phase(pod) === 'Failed';
  // canIgnorePDB: this pod's disruption already happened.
  if (terminal || terminating || phase(pod) === 'Pending') {
    // shouldEnforceResourceVersion: a Pending pod must not turn Ready meanwhile.
    const pinned = !terminal && !terminating && rvUnset;
    deleteWithCondition(
      registry,
      pod,
      pinned ? { ...options, expectedRv: pod.metadata.resourceVersion } : options,
    );
    return success;
  }
  const matching = registry.store.list(pdbs, { namespace, match: (p) => pdbSelects(p, pod) }).items;
  if (matching.length > 1) {
    return {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.',
      code: 500,
    };
  }
  let pinned = false;
  const pdb = matching[0];
  if (pdb) {
    const status = asRecord(pdb['status']);
    const unhealthy = !isReady(pod);
    const policy = asRecord(pdb['spec'])['unhealthyPodEvictionPolicy'];
    const healthyEnough =
      asNumber(status['currentHealthy']) >= asNumber(status['desiredHealthy']) &&
      asNumber(status['desiredHealthy']) > 0;
    // An unhealthy pod does not count towards the budget: it may go without spending it.
    if (unhealthy && (policy === 'AlwaysAllow' || healthyEnough)) pinned = true;
    else checkAndDecrement(registry, pdb, name, options.dryRun === true);
  }
  const deleteOptions = pinned ? { ...options, expectedRv: pod.metadata.resourceVersion } : options;
  try {
    deleteWithCondition(registry, pod, deleteOptions);
  } catch (error) {
    // Our own resourceVersion precondition lost a race: tell the client to come back.
    if (error instanceof ApiError && error.code === 409 && pinned && rvUnset && pdb)
      throw stillProcessing(pdb.metadata.name ?? '');
    throw error;
  }
  return success;
}

function checkAndDecrement(
  registry: Registry,
  pdb: KubeObject,
  pod: string,
  dryRun: boolean,
): void {
  const name = pdb.metadata.name ?? '';
  const status = asRecord(pdb['status']);
  if (asNumber(status['observedGeneration']) < (pdb.metadata.generation ?? 0))
    throw stillProcessing(name);
  const allowed = asNumber(status['disruptionsAllowed']);
  if (allowed < 0) throw forbidden(name, 'pdb disruptions allowed is negative');
  if (Object.keys(asRecord(status['disruptedPods'])).length > maxDisruptedPods)
    throw forbidden(
      name,
      'DisruptedPods map too big - too many evictions not confirmed by PDB controller',
    );
  if (allowed === 0) {
    const cause = `The disruption budget ${name} needs ${asNumber(status['desiredHealthy'])} healthy pods and has ${asNumber(status['currentHealthy'])} currently`;
    throw tooManyRequests(violates, cause, 0);
  }
  if (dryRun) return;
  const next = decremented(pdb, pod, registry.store.clock.timestamp(), false);
  // Through the apiserver's loopback client (podDisruptionBudgetClient): kube-apiserver's entry.
  registry.update(pdbs, { ...pdb, status: next }, pdb.metadata.resourceVersion, {
    subresource: 'status',
    manager: loopbackManager,
  });
}

/** addConditionAndDeletePod: DisruptionTarget=True (EvictionByEvictionAPI), then the delete. */
function deleteWithCondition(registry: Registry, pod: KubeObject, options: DeleteOptions): void {
  let opts = options;
  if (!options.dryRun) {
    if (options.expectedUid !== undefined && options.expectedUid !== pod.metadata.uid) {
      throw new ApiError(
        409,
        'Conflict',
        `Operation cannot be fulfilled on Pod "${pod.metadata.name ?? ''}": the UID in the precondition (${options.expectedUid}) does not match the UID in record (${pod.metadata.uid ?? ''}). The object might have been deleted and then recreated`,
        { name: pod.metadata.name ?? '', kind: 'Pod' },
      );
    }
    if (options.expectedRv !== undefined && options.expectedRv !== pod.metadata.resourceVersion) {
      throw new ApiError(
        409,
        'Conflict',
        `Operation cannot be fulfilled on Pod "${pod.metadata.name ?? ''}": the ResourceVersion in the precondition (${options.expectedRv}) does not match the ResourceVersion in record (${pod.metadata.resourceVersion ?? ''}). The object might have been modified`,
        { name: pod.metadata.name ?? '', kind: 'Pod' },
      );
    }
    // r.store.Update below the handlers: no field manager runs, managedFields stay as they are.
    const updated = registry.update(pods, withDisruptionTarget(registry, pod), undefined, {
      subresource: 'status',
    });
    if (options.expectedRv !== undefined)
      opts = { ...options, expectedRv: updated.metadata.resourceVersion };
  }
  registry.delete(pods, pod.metadata.namespace, pod.metadata.name ?? '', opts);
}

/** podutil.UpdatePodCondition with the eviction API's DisruptionTarget condition. */
function withDisruptionTarget(registry: Registry, pod: KubeObject): KubeObject {
  const next = cloneJson(pod);
  const status = asRecord(next['status']);
  const list = asArray(status['conditions']).filter(isJsonObject);
  const old = list.find((c) => c['type'] === 'DisruptionTarget');
  const condition: JsonObject = {
    type: 'DisruptionTarget',
    status: 'True',
    lastProbeTime: null,
    lastTransitionTime:
      old && old['status'] === 'True'
        ? (old['lastTransitionTime'] ?? null)
        : registry.store.clock.timestamp(),
    reason: 'EvictionByEvictionAPI',
    message: 'Eviction API: evicting',
  };
  status['conditions'] = old ? list.map((c) => (c === old ? condition : c)) : [...list, condition];
  next['status'] = status;
  return next;
}
