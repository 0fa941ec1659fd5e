// Field numbers of k8s.io/apimachinery's meta/v1 messages (pkg/apis/meta/v1/generated.proto,
// v0.33), with their JSON names: ObjectMeta and the small types every kind embeds.

import type { FieldSpec, FieldType, MessageSchema } from './message.js';
import { message } from './message.js';

export const str = (name: string): FieldSpec => ({ name, type: 'string' });
export const strs = (name: string): FieldSpec => ({ name, type: 'string', repeated: true });
export const ptr = (name: string, type: FieldType): FieldSpec => ({ name, type, keep: true });
export const of = (name: string, type: FieldType): FieldSpec => ({ name, type });
export const list = (name: string, type: FieldType): FieldSpec => ({ name, type, repeated: true });
export const stringMap = (name: string): FieldSpec => ({ name, type: { map: 'string' } });

export const ownerReference = message('OwnerReference', {
  1: str('kind'),
  3: str('name'),
  4: str('uid'),
  5: str('apiVersion'),
  6: ptr('controller', 'bool'),
  7: ptr('blockOwnerDeletion', 'bool'),
});

export const managedFieldsEntry = message('ManagedFieldsEntry', {
  1: str('manager'),
  2: str('operation'),
  3: str('apiVersion'),
  4: of('time', 'time'),
  6: str('fieldsType'),
  7: of('fieldsV1', 'rawJson'),
  8: str('subresource'),
});

export const objectMeta = message('ObjectMeta', {
  1: str('name'),
  2: str('generateName'),
  3: str('namespace'),
  4: str('selfLink'),
  5: str('uid'),
  6: str('resourceVersion'),
  7: of('generation', 'int64'),
  8: of('creationTimestamp', 'time'),
  9: of('deletionTimestamp', 'time'),
  10: ptr('deletionGracePeriodSeconds', 'int64'),
  11: stringMap('labels'),
  12: stringMap('annotations'),
  13: list('ownerReferences', ownerReference),
  14: strs('finalizers'),
  17: list('managedFields', managedFieldsEntry),
});

export const condition = message('Condition', {
  1: str('type'),
  2: str('status'),
  3: of('observedGeneration', 'int64'),
  4: of('lastTransitionTime', 'time'),
  5: str('reason'),
  6: str('message'),
});

const requirement = (name: string): MessageSchema =>
  message(name, { 1: str('key'), 2: str('operator'), 3: strs('values') });
export const labelSelectorRequirement = requirement('LabelSelectorRequirement');
export const fieldSelectorRequirement = requirement('FieldSelectorRequirement');

export const labelSelector = message('LabelSelector', {
  1: stringMap('matchLabels'),
  2: list('matchExpressions', labelSelectorRequirement),
});

export const deleteOptions = message('DeleteOptions', {
  1: ptr('gracePeriodSeconds', 'int64'),
  2: ptr(
    'preconditions',
    message('Preconditions', { 1: ptr('uid', 'string'), 2: ptr('resourceVersion', 'string') }),
  ),
  3: ptr('orphanDependents', 'bool'),
  4: ptr('propagationPolicy', 'string'),
  5: strs('dryRun'),
  6: ptr('ignoreStoreReadErrorWithClusterBreakingPotential', 'bool'),
});
