// Nodes as pkg/apis/core/validation/validation.go checks them (ValidateNode, validateNodeTaints,
// ValidateNodeUpdate): taints (reported under metadata.taints, as upstream does), podCIDRs, and
// what may not change once set (podCIDRs, providerID, externalID).

import { fieldError, type FieldError } from '../../apimachinery/field-errors.js';
import { goQuote, goStringSlice, goStruct, GoValue } from '../../apimachinery/go-value.js';
import type { KubeObject } from '../../apimachinery/types.js';
import {
  asArray,
  asRecord,
  deepEqual,
  type JsonObject,
  asString,
} from '../../apimachinery/types.js';
import { cidrFamily, isValidCIDR } from './cidr.js';
import { isValidLabelValue, nameIsDNSSubdomain } from './names.js';
import { validateLabelName, validateObjectMeta, validateObjectMetaUpdate } from './object-meta.js';
import { child, index } from './path.js';

const taintEffects = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'] as const;
const cidrMessage = 'node updates may not change podCIDR except from "" to valid';

function spec(node: KubeObject): JsonObject {
  return asRecord(node['spec']);
}

/** spec.podCIDRs, or the single podCIDR the v1 conversion turns into a list. */
function podCIDRs(node: KubeObject): string[] {
  const list = asArray(spec(node)['podCIDRs']).map(String);
  const single = spec(node)['podCIDR'];
  return list.length === 0 && typeof single === 'string' && single !== '' ? [single] : list;
}

export function validateNodeTaints(taints: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Map<string, Set<string>>();
  asArray(taints).forEach((raw, i) => {
    const t = asRecord(raw);
    const at = index(path, i);
    const k = asString(t['key']);
    const value = asString(t['value']);
    const effect = asString(t['effect']);
    errs.push(...validateLabelName(k, child(at, 'key')));
    const msgs = isValidLabelValue(value);
    if (msgs.length > 0) errs.push(fieldError.invalid(child(at, 'value'), value, msgs.join(';')));
    if (effect === '') errs.push(fieldError.required(child(at, 'effect')));
    else if (!(taintEffects as readonly string[]).includes(effect))
      errs.push(fieldError.notSupported(child(at, 'effect'), effect, taintEffects));
    const keys = seen.get(effect) ?? new Set<string>();
    if (keys.has(k)) {
      const shown = goStruct('core.Taint', [
        ['Key', goQuote(k)],
        ['Value', goQuote(value)],
        ['Effect', goQuote(effect)],
        ['TimeAdded', t['timeAdded'] ? '(*v1.Time)(0xc000a1b2c0)' : '(*v1.Time)(nil)'],
      ]);
      const dup = fieldError.duplicate(at, shown);
      errs.push({ ...dup, body: `${dup.body}: taints must be unique by key and effect pair` });
      return;
    }
    keys.add(k);
    seen.set(effect, keys);
  });
  return errs;
}

export function validateNode(node: KubeObject): FieldError[] {
  const errs = validateObjectMeta(node.metadata, false, nameIsDNSSubdomain, 'metadata', {
    kubeFinalizers: true,
  });
  errs.push(...validateNodeTaints(spec(node)['taints'], 'metadata.taints'));
  const cidrs = podCIDRs(node);
  cidrs.forEach((c, i) => errs.push(...isValidCIDR(index('spec.podCIDRs', i), c)));
  if (cidrs.length > 1) {
    const families = cidrs.map(cidrFamily);
    const dualStack = families.includes(4) && families.includes(6);
    if (!dualStack || cidrs.length > 2)
      errs.push(
        fieldError.invalid(
          'spec.podCIDRs',
          new GoValue(goStringSlice(cidrs)),
          'may specify no more than one CIDR for each IP family',
        ),
      );
    const seen = new Set<string>();
    cidrs.forEach((c, i) => {
      if (seen.has(c)) errs.push(fieldError.duplicate(index('spec.podCIDRs', i), c));
      seen.add(c);
    });
  }
  return errs;
}

export function validateNodeUpdate(node: KubeObject, old: KubeObject): FieldError[] {
  const errs = validateObjectMetaUpdate(node.metadata, old.metadata, 'metadata', {
    kubeFinalizers: true,
  });
  const seen: unknown[] = [];
  asArray(asRecord(node['status'])['addresses']).forEach((a, i) => {
    if (seen.some((s) => deepEqual(s, a))) {
      const addr = asRecord(a);
      const shown = goStruct('core.NodeAddress', [
        ['Type', goQuote(asString(addr['type']))],
        ['Address', goQuote(asString(addr['address']))],
      ]);
      errs.push(fieldError.duplicate(index('status.addresses', i), shown));
    }
    seen.push(a);
  });
  const oldCidrs = podCIDRs(old);
  const newCidrs = podCIDRs(node);
  if (oldCidrs.length > 0) {
    if (oldCidrs.length !== newCidrs.length)
      errs.push(fieldError.forbidden('spec.podCIDRs', cidrMessage));
    else
      oldCidrs.forEach(
        (c, i) =>
          c !== newCidrs[i] && errs.push(fieldError.forbidden('spec.podCIDRs', cidrMessage)),
      );
  }
  const oldProvider = asString(spec(old)['providerID']);
  if (oldProvider !== '' && oldProvider !== asString(spec(node)['providerID']))
    errs.push(
      fieldError.forbidden(
        'spec.providerID',
        'node updates may not change providerID except from "" to valid',
      ),
    );
  errs.push(...validateNodeTaints(spec(node)['taints'], 'metadata.taints'));
  if ((spec(node)['externalID'] ?? '') !== (spec(old)['externalID'] ?? ''))
    errs.push(fieldError.forbidden('spec.externalID', 'may not be updated'));
  return errs;
}
