// PodSpec and PodTemplateSpec as pkg/apis/core/validation/validation.go checks them
// (ValidatePodSpec, ValidateVolumes, validateRestartPolicy, validateDNSPolicy, ValidateTolerations,
// ValidatePodTemplateSpec), in the apiserver's order, for the fields the twin's clients send.

import { fieldError, type FieldError } from '../../apimachinery/field-errors.js';
import { asArray, asRecord, isJsonObject } from '../../apimachinery/types.js';
import { hostNetworkPortErrors, validateContainers, validateInitContainers } from './containers.js';
import {
  inclusiveRangeError,
  isDNS1123Label,
  isValidLabelValue,
  nameIsDNSSubdomain,
} from './names.js';
import { validateNodeAffinity } from './node-affinity.js';
import { validateAnnotations, validateLabelName, validateLabels } from './object-meta.js';
import { child, index } from './path.js';

const volumeSources = [
  'emptyDir',
  'hostPath',
  'gitRepo',
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'secret',
  'nfs',
  'iscsi',
  'glusterfs',
  'flocker',
  'persistentVolumeClaim',
  'rbd',
  'cinder',
  'cephfs',
  'quobyte',
  'downwardAPI',
  'fc',
  'flexVolume',
  'configMap',
  'azureFile',
  'vsphereVolume',
  'photonPersistentDisk',
  'portworxVolume',
  'azureDisk',
  'storageos',
  'projected',
  'scaleIO',
  'csi',
  'ephemeral',
  'image',
];
const taintEffects = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'] as const;
const restartPolicies = ['Always', 'OnFailure', 'Never'] as const;
const dnsPolicies = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'] as const;
const maxInt32 = 2147483647;

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function validateVolumeSource(v: Record<string, unknown>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let count = 0;
  for (const kind of volumeSources) {
    if (!isJsonObject(v[kind])) continue;
    if (count > 0) {
      errs.push(fieldError.forbidden(child(path, kind), 'may not specify more than 1 volume type'));
      continue;
    }
    count += 1;
    const src = v[kind];
    if (kind === 'hostPath' && str(src['path']) === '')
      errs.push(fieldError.required(child(path, kind, 'path')));
    if (kind === 'configMap' && str(src['name']) === '')
      errs.push(fieldError.required(child(path, kind, 'name')));
    if (kind === 'secret' && str(src['secretName']) === '')
      errs.push(fieldError.required(child(path, kind, 'secretName')));
    if (kind === 'persistentVolumeClaim' && str(src['claimName']) === '')
      errs.push(fieldError.required(child(path, kind, 'claimName')));
  }
  if (count === 0) errs.push(fieldError.required(path, 'must specify a volume type'));
  return errs;
}

/** ValidateVolumes: the valid volume names (for mounts) and the errors. */
export function validateVolumes(
  volumes: unknown,
  path: string,
): { names: Set<string>; errors: FieldError[] } {
  const names = new Set<string>();
  const errors: FieldError[] = [];
  asArray(volumes).forEach((raw, i) => {
    const v = asRecord(raw);
    const at = index(path, i);
    const name = str(v['name']);
    const el = validateVolumeSource(v, at);
    if (name === '') el.push(fieldError.required(child(at, 'name')));
    else
      for (const m of isDNS1123Label(name)) el.push(fieldError.invalid(child(at, 'name'), name, m));
    if (names.has(name)) el.push(fieldError.duplicate(child(at, 'name'), name));
    if (el.length === 0) names.add(name);
    else errors.push(...el);
  });
  return { names, errors };
}

/** ValidateTolerations: keys, operators, values and effects. */
export function validateTolerations(tolerations: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  asArray(tolerations).forEach((raw, i) => {
    const t = asRecord(raw);
    const at = index(path, i);
    const k = str(t['key']);
    const op = str(t['operator']);
    const value = str(t['value']);
    const effect = str(t['effect']);
    if (k !== '') errs.push(...validateLabelName(k, child(at, 'key')));
    if (k === '' && op !== 'Exists')
      errs.push(
        fieldError.invalid(
          child(at, 'operator'),
          op,
          'operator must be Exists when `key` is empty, which means "match all values and all keys"',
        ),
      );
    if (
      t['tolerationSeconds'] !== undefined &&
      t['tolerationSeconds'] !== null &&
      effect !== 'NoExecute'
    )
      errs.push(
        fieldError.invalid(
          child(at, 'effect'),
          effect,
          "effect must be 'NoExecute' when `tolerationSeconds` is set",
        ),
      );
    if (op === 'Equal' || op === '') {
      const msgs = isValidLabelValue(value);
      if (msgs.length > 0)
        errs.push(fieldError.invalid(child(at, 'operator'), value, msgs.join(';')));
    } else if (op === 'Exists') {
      if (value !== '')
        errs.push(
          fieldError.invalid(
            child(at, 'operator'),
            value,
            "value must be empty when `operator` is 'Exists'",
          ),
        );
    } else {
      errs.push(fieldError.notSupported(child(at, 'operator'), op, ['Equal', 'Exists']));
    }
    if (effect !== '' && !(taintEffects as readonly string[]).includes(effect))
      errs.push(fieldError.notSupported(child(at, 'effect'), effect, taintEffects));
  });
  return errs;
}

export interface PodSpecOptions {
  /** The spec is a Pod's own (ResourceIsPod), not a template's. */
  resourceIsPod: boolean;
}

/** ValidatePodSpec, for the fields the twin models. */
export function validatePodSpec(
  specValue: unknown,
  path: string,
  opts: PodSpecOptions,
): FieldError[] {
  const spec = asRecord(specValue);
  const errs: FieldError[] = [];
  if (typeof spec['terminationGracePeriodSeconds'] !== 'number')
    errs.push(fieldError.required(child(path, 'terminationGracePeriodSeconds')));
  const volumes = validateVolumes(spec['volumes'], child(path, 'volumes'));
  errs.push(...volumes.errors);
  const hostNetwork = spec['hostNetwork'] === true;
  const ctx = {
    volumes: volumes.names,
    hostNetworkPod: hostNetwork && opts.resourceIsPod,
    hostNetworkTemplate: hostNetwork && !opts.resourceIsPod,
  };
  errs.push(...validateContainers(spec['containers'], child(path, 'containers'), ctx));
  errs.push(
    ...validateInitContainers(
      spec['initContainers'],
      spec['containers'],
      child(path, 'initContainers'),
      ctx,
    ),
  );
  errs.push(...hostNetworkPortErrors(spec['containers'], child(path, 'containers'), ctx));
  const restart = str(spec['restartPolicy']);
  if (restart === '') errs.push(fieldError.required(child(path, 'restartPolicy')));
  else if (!(restartPolicies as readonly string[]).includes(restart))
    errs.push(fieldError.notSupported(child(path, 'restartPolicy'), restart, restartPolicies));
  const dns = str(spec['dnsPolicy']);
  if (dns === '') errs.push(fieldError.required(child(path, 'dnsPolicy')));
  else if (!(dnsPolicies as readonly string[]).includes(dns))
    errs.push(fieldError.notSupported(child(path, 'dnsPolicy'), dns, dnsPolicies));
  errs.push(...validateLabels(spec['nodeSelector'], child(path, 'nodeSelector')));
  const nodeAffinity = asRecord(spec['affinity'])['nodeAffinity'];
  if (isJsonObject(nodeAffinity))
    errs.push(...validateNodeAffinity(nodeAffinity, child(path, 'affinity', 'nodeAffinity')));
  if (dns === 'None' && !isJsonObject(spec['dnsConfig']))
    errs.push(
      fieldError.required(
        child(path, 'dnsConfig'),
        'must provide `dnsConfig` when `dnsPolicy` is None',
      ),
    );
  for (const field of ['serviceAccountName', 'nodeName', 'priorityClassName'] as const) {
    const value = str(spec[field]);
    if (value !== '')
      for (const m of nameIsDNSSubdomain(value, false))
        errs.push(fieldError.invalid(child(path, field), value, m));
    if (field === 'nodeName') {
      const ads = spec['activeDeadlineSeconds'];
      if (typeof ads === 'number' && (ads < 1 || ads > maxInt32))
        errs.push(
          fieldError.invalid(
            child(path, 'activeDeadlineSeconds'),
            ads,
            inclusiveRangeError(1, maxInt32),
          ),
        );
      for (const f of ['hostname', 'subdomain']) {
        const v = str(spec[f]);
        if (v !== '')
          for (const m of isDNS1123Label(v)) errs.push(fieldError.invalid(child(path, f), v, m));
      }
      errs.push(...validateTolerations(spec['tolerations'], child(path, 'tolerations')));
    }
  }
  return errs;
}

/** ValidatePodTemplateSpec: template labels and annotations, then the spec as a template's. */
export function validatePodTemplateSpec(template: unknown, path: string): FieldError[] {
  const t = asRecord(template);
  const meta = asRecord(t['metadata']);
  const errs = [
    ...validateLabels(meta['labels'], child(path, 'labels')),
    ...validateAnnotations(meta['annotations'], child(path, 'annotations')),
    ...validatePodSpec(t['spec'], child(path, 'spec'), { resourceIsPod: false }),
  ];
  if (asArray(asRecord(t['spec'])['ephemeralContainers']).length > 0)
    errs.push(
      fieldError.forbidden(
        child(path, 'spec', 'ephemeralContainers'),
        'ephemeral containers not allowed in pod template',
      ),
    );
  return errs;
}
