// The few protobuf bodies clients send the twin: client-go's typed clients (kubectl drain and
// kubectl create pdb among them) encode DeleteOptions, policy/v1 Evictions and
// PodDisruptionBudgets as `application/vnd.kubernetes.protobuf`.
// The envelope is runtime.Unknown behind the `k8s\0` magic (apimachinery runtime/serializer/
// protobuf); the field numbers are those of k8s.io/api and apimachinery's generated.proto.

import { badRequest } from '../errors.js';
import type { JsonObject, JsonValue } from '../types.js';
import type { Fields } from './wire.js';
import { fieldsOf, int, last, messages, msg, noFields, str, stringMap, strings } from './wire.js';

export const protobufMediaType = 'application/vnd.kubernetes.protobuf';

const magic = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

/** metav1.DeleteOptions: gracePeriodSeconds 1, preconditions 2, orphanDependents 3, policy 4, dryRun 5. */
function deleteOptions(f: Fields): JsonObject {
  const out: JsonObject = {};
  const grace = int(f, 1);
  if (grace !== undefined) out['gracePeriodSeconds'] = grace;
  const pre = msg(f, 2);
  if (pre) {
    const p: JsonObject = {};
    const uid = str(pre, 1);
    const rv = str(pre, 2);
    if (uid !== undefined) p['uid'] = uid;
    if (rv !== undefined) p['resourceVersion'] = rv;
    out['preconditions'] = p;
  }
  const orphan = int(f, 3);
  if (orphan !== undefined) out['orphanDependents'] = orphan !== 0;
  const policy = str(f, 4);
  if (policy !== undefined) out['propagationPolicy'] = policy;
  const dryRun = strings(f, 5);
  if (dryRun.length > 0) out['dryRun'] = dryRun;
  return out;
}

/** metav1.OwnerReference: kind 1, name 3, uid 4, apiVersion 5, controller 6, blockOwnerDeletion 7. */
function ownerReference(f: Fields): JsonObject {
  const out: JsonObject = {
    apiVersion: str(f, 5) ?? '',
    kind: str(f, 1) ?? '',
    name: str(f, 3) ?? '',
    uid: str(f, 4) ?? '',
  };
  const controller = int(f, 6);
  if (controller !== undefined) out['controller'] = controller !== 0;
  const block = int(f, 7);
  if (block !== undefined) out['blockOwnerDeletion'] = block !== 0;
  return out;
}

/**
 * The ObjectMeta fields a client can set: name 1, generateName 2, namespace 3, uid 5,
 * resourceVersion 6, labels 11, annotations 12, ownerReferences 13, finalizers 14.
 */
function objectMeta(f: Fields): JsonObject {
  const out: JsonObject = {};
  const entries: [string, number][] = [
    ['name', 1],
    ['generateName', 2],
    ['namespace', 3],
    ['uid', 5],
    ['resourceVersion', 6],
  ];
  for (const [key, n] of entries) {
    const v = str(f, n);
    if (v !== undefined && v !== '') out[key] = v;
  }
  const labels = stringMap(f, 11);
  if (labels) out['labels'] = labels;
  const annotations = stringMap(f, 12);
  if (annotations) out['annotations'] = annotations;
  const owners = messages(f, 13).map(ownerReference);
  if (owners.length > 0) out['ownerReferences'] = owners;
  const finalizers = strings(f, 14);
  if (finalizers.length > 0) out['finalizers'] = finalizers;
  return out;
}

/** intstr.IntOrString: type 1 (0 int, 1 string), intVal 2, strVal 3. */
function intOrString(f: Fields): JsonValue {
  return int(f, 1) === 1 ? (str(f, 3) ?? '') : (int(f, 2) ?? 0);
}

/** metav1.LabelSelector: matchLabels 1, matchExpressions 2 (key 1, operator 2, values 3). */
function labelSelector(f: Fields): JsonObject {
  const out: JsonObject = {};
  const labels = stringMap(f, 1);
  if (labels) out['matchLabels'] = labels;
  const expressions = messages(f, 2).map((e) => {
    const expr: JsonObject = { key: str(e, 1) ?? '', operator: str(e, 2) ?? '' };
    const values = strings(e, 3);
    if (values.length > 0) expr['values'] = values;
    return expr;
  });
  if (expressions.length > 0) out['matchExpressions'] = expressions;
  return out;
}

/** policy/v1 PodDisruptionBudget: metadata 1, spec 2 (minAvailable 1, selector 2, maxUnavailable 3, unhealthyPodEvictionPolicy 4). */
function podDisruptionBudget(f: Fields): JsonObject {
  const spec: JsonObject = {};
  const s = msg(f, 2) ?? noFields();
  const min = msg(s, 1);
  if (min) spec['minAvailable'] = intOrString(min);
  const selector = msg(s, 2);
  if (selector) spec['selector'] = labelSelector(selector);
  const max = msg(s, 3);
  if (max) spec['maxUnavailable'] = intOrString(max);
  const policy = str(s, 4);
  if (policy !== undefined) spec['unhealthyPodEvictionPolicy'] = policy;
  return { metadata: objectMeta(msg(f, 1) ?? noFields()), spec };
}

const decoders: Readonly<Record<string, (raw: Fields) => JsonObject>> = {
  'v1/DeleteOptions': deleteOptions,
  'meta.k8s.io/v1/DeleteOptions': deleteOptions,
  // policy/v1 Eviction: metadata 1, deleteOptions 2.
  'policy/v1/PodDisruptionBudget': podDisruptionBudget,
  'policy/v1/Eviction': (f) => {
    const out: JsonObject = { metadata: objectMeta(msg(f, 1) ?? noFields()) };
    const options = msg(f, 2);
    if (options) out['deleteOptions'] = deleteOptions(options);
    return out;
  },
};

/**
 * Decodes a protobuf request body into the JSON object it stands for, or undefined when the twin
 * has no decoder for its kind (the caller answers 415 then, as it does for any other media type).
 */
export function decodeProtobuf(body: Buffer): JsonObject | undefined {
  if (body.length < magic.length || !body.subarray(0, magic.length).equals(magic)) {
    throw badRequest(
      'error decoding request body: provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]',
    );
  }
  const unknown = fieldsOf(body.subarray(magic.length));
  const typeMeta = msg(unknown, 1) ?? noFields();
  const apiVersion = str(typeMeta, 1) ?? '';
  const kind = str(typeMeta, 2) ?? '';
  const decode = decoders[`${apiVersion}/${kind}`];
  if (!decode) return undefined;
  const raw = last(unknown, 2);
  return { apiVersion, kind, ...decode(fieldsOf(Buffer.isBuffer(raw) ? raw : Buffer.alloc(0))) };
}
