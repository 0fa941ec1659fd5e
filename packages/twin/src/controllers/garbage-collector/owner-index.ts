// The GC's dependency graph, reduced to what the twin needs: for each owner uid, the objects
// whose ownerReferences name it, and whether each reference blocks the owner's deletion. It is
// kept from the store's change feed, as the GraphBuilder keeps uidToNode from informers.

import type { KubeObject } from '../../apimachinery/types.js';
import { asString } from '../../apimachinery/types.js';
import type { ResourceDef } from '../../registry/resources.js';
import type { Identity } from './identity.js';
import { hasOwnerRefs, identityOf, keyOf, ownerRefs } from './identity.js';

export interface Dependent {
  id: Identity;
  /** The reference to this owner has blockOwnerDeletion: true. */
  blocking: boolean;
}

export class OwnerIndex {
  private readonly byOwner = new Map<string, Map<string, Dependent>>();

  /** Replaces what `before` said about its owners with what `after` says (either may be absent). */
  update(def: ResourceDef, before: KubeObject | undefined, after: KubeObject | undefined): void {
    const subject = after ?? before;
    if (!subject) return;
    // Most objects own nothing and are owned by nothing: skip them before building a key.
    if (!hasOwnerRefs(before) && !hasOwnerRefs(after)) return;
    const id = identityOf(def, subject);
    const key = keyOf(id);
    for (const ref of ownerRefs(before)) {
      const uid = asString(ref['uid']);
      const deps = this.byOwner.get(uid);
      deps?.delete(key);
      if (deps?.size === 0) this.byOwner.delete(uid);
    }
    for (const ref of ownerRefs(after)) {
      const uid = asString(ref['uid']);
      let deps = this.byOwner.get(uid);
      if (!deps) {
        deps = new Map();
        this.byOwner.set(uid, deps);
      }
      deps.set(key, { id, blocking: ref['blockOwnerDeletion'] === true });
    }
  }

  dependents(ownerUid: string): Dependent[] {
    return [...(this.byOwner.get(ownerUid)?.values() ?? [])];
  }
}
