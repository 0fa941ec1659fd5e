// The deprecated.daemonset.template.generation annotation, which the apiserver's DaemonSet
// strategy sets to 1 on create and bumps with every pod template change. The twin's registry does
// not, so the controller notes template changes from the change feed and writes the annotation
// before its next sync uses it (for the pod-template-generation label).

import type { Registry } from '../../registry/registry.js';
import type { ChangeEvent } from '../../store/store.js';
import type { KubeObject } from '../../apimachinery/types.js';
import { deepEqual } from '../../apimachinery/types.js';
import { templateGeneration } from './spec.js';
import { daemonSetsDef, spec, templateGenerationAnnotation } from '../kube.js';

export class TemplateGenerations {
  private readonly pending = new Map<string, number>();

  /** Seeds DaemonSets loaded without the annotation, as if the apiserver had created them. */
  seed(key: string, ds: KubeObject): void {
    if (templateGeneration(ds) === undefined) this.pending.set(key, 1);
  }

  observe(key: string, event: ChangeEvent): void {
    if (event.type === 'DELETED') {
      this.pending.delete(key);
      return;
    }
    const ds = event.object;
    const annotation = templateGeneration(ds);
    if (event.type === 'ADDED') {
      if (annotation === undefined) this.pending.set(key, 1);
      return;
    }
    const old = event.oldObject;
    // Someone (a future registry) already bumped it: nothing to do.
    if (!old || templateGeneration(old) !== annotation) return;
    if (deepEqual(spec(old)['template'], spec(ds)['template'])) return;
    const base = this.pending.get(key) ?? Number(annotation ?? '0');
    this.pending.set(key, base + 1);
  }

  /** Writes the pending annotation, returning the DaemonSet as stored. */
  apply(registry: Registry, key: string, ds: KubeObject): KubeObject {
    const pending = this.pending.get(key);
    this.pending.delete(key);
    if (pending === undefined || templateGeneration(ds) === String(pending)) return ds;
    const annotations = {
      ...ds.metadata.annotations,
      [templateGenerationAnnotation]: String(pending),
    };
    const next = { ...ds, metadata: { ...ds.metadata, annotations } };
    return registry.update(daemonSetsDef, next, undefined);
  }
}
