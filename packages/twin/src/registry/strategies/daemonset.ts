// pkg/registry/apps/daemonset/strategy.go: status reset on create, generation 1 and bumped on
// spec changes, the template generation (spec.templateGeneration internally, the
// deprecated.daemonset.template.generation annotation in apps/v1) set to 1 on create and bumped
// on every pod template change, and the status strategy's own validation.

import { badRequest } from '../../apimachinery/errors.js';
import type { KubeObject } from '../../apimachinery/types.js';
import { asRecord, deepEqual, omit } from '../../apimachinery/types.js';
import {
  templateGenerationAnnotation,
  validateDaemonSet,
  validateDaemonSetStatusUpdate,
  validateDaemonSetUpdate,
} from '../validation/daemonset.js';
import type { ResourceStrategy } from '../strategy.js';

/**
 * Convert_v1_DaemonSet_To_apps_DaemonSet reads the annotation into spec.templateGeneration
 * (pkg/apis/apps/v1/conversion.go): absent means 0, and a non-integer fails the decoding.
 */
function readTemplateGeneration(ds: KubeObject): number {
  const value = ds.metadata.annotations?.[templateGenerationAnnotation];
  if (value === undefined) return 0;
  if (!/^[-+]?\d+$/.test(value))
    throw badRequest(`strconv.ParseInt: parsing ${JSON.stringify(value)}: invalid syntax`);
  return Number(value);
}

function writeTemplateGeneration(ds: KubeObject, generation: number): void {
  ds.metadata.annotations = {
    ...ds.metadata.annotations,
    [templateGenerationAnnotation]: String(generation),
  };
}

export const daemonSetStrategy: ResourceStrategy = {
  prepareForCreate(ds) {
    ds['status'] = {};
    ds.metadata.generation = 1;
    writeTemplateGeneration(ds, Math.max(1, readTemplateGeneration(ds)));
  },
  prepareForUpdate(ds, old) {
    readTemplateGeneration(ds);
    const oldGeneration = old.metadata.generation ?? 1;
    const oldTemplateGeneration = readTemplateGeneration(old);
    const next = asRecord(ds['spec']);
    const prev = asRecord(old['spec']);
    ds.metadata.generation = oldGeneration;
    if (!deepEqual(next['template'], prev['template'])) {
      writeTemplateGeneration(ds, oldTemplateGeneration + 1);
      ds.metadata.generation = oldGeneration + 1;
      return;
    }
    writeTemplateGeneration(ds, oldTemplateGeneration);
    if (!deepEqual(omit(next, 'templateGeneration'), omit(prev, 'templateGeneration')))
      ds.metadata.generation = oldGeneration + 1;
  },
  validate: validateDaemonSet,
  validateUpdate: validateDaemonSetUpdate,
  validateStatusUpdate: validateDaemonSetStatusUpdate,
  prepareForSeed(ds) {
    // A scenario DaemonSet looks as the apiserver would have stored it: template generation 1.
    if (ds.metadata.annotations?.[templateGenerationAnnotation] === undefined)
      writeTemplateGeneration(ds, 1);
  },
  allowUnconditionalUpdate: true,
};
