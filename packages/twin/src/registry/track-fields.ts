// The registry's managedFields hook: the field manager's Update bookkeeping (handlers/create.go,
// update.go and patch.go call FieldManager.UpdateNoErrors before the strategy prepares the
// object), or the entries a server-side apply already computed.

import type { KubeObject } from '../apimachinery/types.js';
import { cloneJson } from '../apimachinery/types.js';
import { trackUpdate } from '../fieldmanager/field-manager.js';
import { kindContext } from '../fieldmanager/kind-context.js';
import { toView } from './event-views.js';
import type { ResourceDef } from './resources.js';
import { groupVersion } from './resources.js';

export interface TrackOptions {
  subresource?: 'status' | undefined;
  manager?: string | undefined;
  applied?: boolean;
  view?: ResourceDef | undefined;
}

/**
 * Sets `next.metadata.managedFields`. A write through a view (events.k8s.io Events) is tracked
 * in the view's shape and version, as the apiserver's field manager works on the request's
 * version; `input` is the body a status write started from.
 */
export function trackFields(
  def: ResourceDef,
  live: KubeObject | undefined,
  next: KubeObject,
  options: TrackOptions,
  now: string,
  input: KubeObject = next,
): void {
  if (options.applied === true) {
    const applied = input.metadata.managedFields;
    if (applied) next.metadata.managedFields = cloneJson(applied);
    else delete next.metadata.managedFields;
    return;
  }
  if (options.manager === undefined) return;
  const view = options.view ?? def;
  if (view === def) {
    const ctx = kindContext(groupVersion(def), def.kind, options.subresource);
    trackUpdate(ctx, live, next, options.manager, now);
    return;
  }
  const shown = { ...toView(view, next), metadata: { ...next.metadata } };
  const ctx = kindContext(groupVersion(view), view.kind, options.subresource);
  trackUpdate(ctx, live && toView(view, live), shown, options.manager, now);
  const entries = shown.metadata.managedFields;
  if (entries) next.metadata.managedFields = entries;
  else delete next.metadata.managedFields;
}
