// NetworkPolicies as pkg/apis/networking/validation/validation.go checks them
// (ValidateNetworkPolicySpec): selectors, ports (protocol, number or name, endPort), peers
// (exactly one of the selectors or ipBlock; ipBlock's CIDRs), policyTypes.

import { fieldError, type FieldError } from '../../apimachinery/field-errors.js';
import type { JsonObject, KubeObject } from '../../apimachinery/types.js';
import { asArray, asRecord, asString } from '../../apimachinery/types.js';
import { validateLabelSelector } from './label-selector.js';
import { isValidPortName, isValidPortNum, nameIsDNSSubdomain } from './names.js';
import { validateObjectMeta, validateObjectMetaUpdate } from './object-meta.js';
import { child, index } from './path.js';

const protocols = ['SCTP', 'TCP', 'UDP'];
const policyTypes = ['Egress', 'Ingress'];

function validatePort(port: JsonObject, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const protocol = port['protocol'];
  if (protocol !== undefined && !protocols.includes(asString(protocol)))
    errs.push(fieldError.notSupported(child(path, 'protocol'), asString(protocol), protocols));
  const value = port['port'];
  const endPort = port['endPort'];
  if (typeof value === 'number') {
    for (const msg of isValidPortNum(value))
      errs.push(fieldError.invalid(child(path, 'port'), value, msg));
    if (typeof endPort === 'number') {
      if (endPort < value)
        errs.push(
          fieldError.invalid(
            child(path, 'endPort'),
            endPort,
            'must be greater than or equal to `port`',
          ),
        );
      for (const msg of isValidPortNum(endPort))
        errs.push(fieldError.invalid(child(path, 'endPort'), endPort, msg));
    }
  } else if (typeof value === 'string') {
    if (endPort !== undefined)
      errs.push(
        fieldError.invalid(
          child(path, 'endPort'),
          endPort,
          'may not be specified when `port` is non-numeric',
        ),
      );
    for (const msg of isValidPortName(value))
      errs.push(fieldError.invalid(child(path, 'port'), value, msg));
  } else if (endPort !== undefined) {
    errs.push(
      fieldError.invalid(
        child(path, 'endPort'),
        endPort,
        'may not be specified when `port` is not specified',
      ),
    );
  }
  return errs;
}

function validatePeer(peer: JsonObject, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let set = 0;
  if (peer['podSelector'] !== undefined) {
    set += 1;
    errs.push(...validateLabelSelector(peer['podSelector'], child(path, 'podSelector')));
  }
  if (peer['namespaceSelector'] !== undefined) {
    set += 1;
    errs.push(
      ...validateLabelSelector(peer['namespaceSelector'], child(path, 'namespaceSelector')),
    );
  }
  if (peer['ipBlock'] !== undefined) {
    set += 1;
    const block = asRecord(peer['ipBlock']);
    const cidr = asString(block['cidr']);
    if (cidr === '') errs.push(fieldError.required(child(path, 'ipBlock', 'cidr')));
  }
  if (set === 0) errs.push(fieldError.required(path, 'must specify a peer'));
  else if (set > 1 && peer['ipBlock'] !== undefined)
    errs.push(fieldError.forbidden(path, 'may not specify both ipBlock and another peer'));
  return errs;
}

export function validateNetworkPolicy(np: KubeObject): FieldError[] {
  const errs = validateObjectMeta(np.metadata, true, nameIsDNSSubdomain, 'metadata', {
    kubeFinalizers: true,
  });
  const spec = asRecord(np['spec']);
  errs.push(...validateLabelSelector(spec['podSelector'] ?? {}, 'spec.podSelector'));
  for (const [direction, peers] of [
    ['ingress', 'from'],
    ['egress', 'to'],
  ] as const) {
    asArray(spec[direction]).forEach((rule, i) => {
      const at = index(child('spec', direction), i);
      asArray(asRecord(rule)['ports']).forEach((p, j) =>
        errs.push(...validatePort(asRecord(p), index(child(at, 'ports'), j))),
      );
      asArray(asRecord(rule)[peers]).forEach((p, j) =>
        errs.push(...validatePeer(asRecord(p), index(child(at, peers), j))),
      );
    });
  }
  const types = asArray(spec['policyTypes']).map((t) => asString(t));
  types.forEach((t, i) => {
    if (!policyTypes.includes(t))
      errs.push(fieldError.notSupported(index('spec.policyTypes', i), t, policyTypes));
  });
  if (types.length > policyTypes.length)
    errs.push(
      fieldError.invalid(
        'spec.policyTypes',
        types.join(','),
        'may not specify more than two policyTypes',
      ),
    );
  return errs;
}

export function validateNetworkPolicyUpdate(np: KubeObject, old: KubeObject): FieldError[] {
  return [
    ...validateObjectMetaUpdate(np.metadata, old.metadata, 'metadata', { kubeFinalizers: true }),
    ...validateNetworkPolicy(np),
  ];
}
