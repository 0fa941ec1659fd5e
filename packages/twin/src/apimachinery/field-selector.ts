// Field selectors: only `=`, `==` and `!=` on the fields each resource indexes, with the real
// apiserver's error for anything else (kubectl and controllers rely on spec.nodeName for pods).

import { SelectorParseError } from './label-selector.js';
import { atLeast, type Version } from '../node/versions.js';
import type { KubeObject } from './types.js';
import { asString, pathValue } from './types.js';

export interface FieldRequirement {
  field: string;
  negate: boolean;
  value: string;
}

export type FieldSelector = FieldRequirement[];

const common = ['metadata.name', 'metadata.namespace'];

/** Fields each resource supports beyond metadata.name and metadata.namespace. */
const extraFields: Record<string, readonly string[]> = {
  pods: [
    'spec.nodeName',
    'spec.restartPolicy',
    'spec.schedulerName',
    'spec.serviceAccountName',
    'spec.hostNetwork',
    'status.phase',
    'status.podIP',
    'status.nominatedNodeName',
  ],
  nodes: ['spec.unschedulable'],
  namespaces: ['status.phase'],
  events: [
    'involvedObject.kind',
    'involvedObject.namespace',
    'involvedObject.name',
    'involvedObject.uid',
    'involvedObject.apiVersion',
    'involvedObject.resourceVersion',
    'involvedObject.fieldPath',
    'reason',
    'reportingComponent',
    'source',
    'type',
  ],
  services: ['spec.clusterIP', 'spec.type'],
};

/** The release (1.minor) that added a field: Services' fields came in v1.31 (kubernetes#123905). */
const addedIn: Record<string, Readonly<Record<string, number>>> = {
  services: { 'spec.clusterIP': 31, 'spec.type': 31 },
};

/**
 * Parses a fieldSelector for `plural`. `served` is the apiserver version the twin serves: fields
 * added after it are rejected as that release rejects them (omitted: the newest release).
 */
export function parseFieldSelector(input: string, plural: string, served?: Version): FieldSelector {
  if (input.trim() === '') return [];
  const since = addedIn[plural] ?? {};
  const allowed = new Set(
    [...common, ...(extraFields[plural] ?? [])].filter((field) => {
      const minor = since[field];
      return minor === undefined || served === undefined || atLeast(served, minor);
    }),
  );
  return input.split(',').map((part) => {
    const m = /^\s*([^!=\s]+)\s*(==|!=|=)\s*(.*?)\s*$/.exec(part);
    if (!m)
      throw new SelectorParseError(`invalid selector: '${input}'; can't understand '${part}'`);
    const field = m[1] ?? '';
    if (!allowed.has(field)) throw new SelectorParseError(`field label not supported: ${field}`);
    return { field, negate: m[2] === '!=', value: m[3] ?? '' };
  });
}

function fieldValue(obj: KubeObject, field: string): string {
  if (field === 'source') return asString(pathValue(obj, 'source.component'));
  const v = pathValue(obj, field);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (v === undefined || v === null)
    return field === 'spec.hostNetwork' || field === 'spec.unschedulable' ? 'false' : '';
  return typeof v === 'string' ? v : JSON.stringify(v);
}

export function matchesFields(selector: FieldSelector, obj: KubeObject): boolean {
  return selector.every((req) => (fieldValue(obj, req.field) === req.value) !== req.negate);
}
