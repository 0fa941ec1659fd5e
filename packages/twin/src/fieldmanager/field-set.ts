// fieldpath.Set of structured-merge-diff: a trie of path elements whose members are the owned
// fields. The set operations keep upstream's exact semantics (Difference keeps a child whose
// parent is only a member on the other side; RecursiveDifference drops it). A set is never
// changed once built, so results share the subtrees an operation leaves alone and are the input
// itself when nothing changes: a write that keeps a manager's fields keeps its set, and its
// cached FieldsV1 encoding, on the controllers' hot path.

import type { Path, PathElement } from './path-element.js';
import { comparePathElements, elementId } from './path-element.js';
import type { SchemaNode } from '../schema/types.js';

interface Child {
  pe: PathElement;
  set: FieldSet;
}

export class FieldSet {
  private readonly members = new Map<string, PathElement>();
  private readonly children = new Map<string, Child>();

  static of(...paths: Path[]): FieldSet {
    const s = new FieldSet();
    for (const p of paths) s.insert(p);
    return s;
  }

  /** Adds the path; the empty path (the whole object) is never tracked. */
  insert(path: Path): void {
    if (path.length > 0) FieldSet.insertInto(this, path);
  }

  private static insertInto(root: FieldSet, path: Path): void {
    let s = root;
    for (let i = 0; i < path.length - 1; i += 1) s = s.descend(path[i] as PathElement);
    const last = path[path.length - 1] as PathElement;
    s.members.set(elementId(last), last);
  }

  /** Adds one member at this level. */
  addMember(pe: PathElement): void {
    this.members.set(elementId(pe), pe);
  }

  /** The child set under `pe`, created when absent. */
  descend(pe: PathElement): FieldSet {
    const id = elementId(pe);
    let c = this.children.get(id);
    if (!c) {
      c = { pe, set: new FieldSet() };
      this.children.set(id, c);
    }
    return c.set;
  }

  has(path: Path): boolean {
    const [first, ...rest] = path;
    if (!first) return false;
    if (rest.length === 0) return this.members.has(elementId(first));
    return this.children.get(elementId(first))?.set.has(rest) ?? false;
  }

  hasMember(pe: PathElement): boolean {
    return this.members.has(elementId(pe));
  }

  withPrefix(pe: PathElement): FieldSet {
    return this.children.get(elementId(pe))?.set ?? new FieldSet();
  }

  empty(): boolean {
    if (this.members.size > 0) return false;
    for (const c of this.children.values()) if (!c.set.empty()) return false;
    return true;
  }

  copy(): FieldSet {
    const out = new FieldSet();
    for (const [id, pe] of this.members) out.members.set(id, pe);
    for (const [id, c] of this.children) out.children.set(id, { pe: c.pe, set: c.set.copy() });
    return out;
  }

  private bare(): boolean {
    return this.members.size === 0 && this.children.size === 0;
  }

  /** True when every member and child of `other` is here too (union would add nothing). */
  covers(other: FieldSet): boolean {
    if (other === this) return true;
    for (const id of other.members.keys()) if (!this.members.has(id)) return false;
    for (const [id, c] of other.children) {
      const mine = this.children.get(id);
      if (!mine || !mine.set.covers(c.set)) return false;
    }
    return true;
  }

  union(other: FieldSet): FieldSet {
    if (this.covers(other)) return this;
    if (this.bare()) return other;
    const out = new FieldSet();
    for (const [id, pe] of this.members) out.members.set(id, pe);
    for (const [id, pe] of other.members) out.members.set(id, pe);
    for (const [id, c] of this.children) out.children.set(id, c);
    for (const [id, c] of other.children) {
      const mine = this.children.get(id);
      out.children.set(id, mine ? { pe: c.pe, set: mine.set.union(c.set) } : c);
    }
    return out;
  }

  intersection(other: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const [id, pe] of this.members) if (other.members.has(id)) out.members.set(id, pe);
    for (const [id, c] of this.children) {
      const theirs = other.children.get(id);
      if (!theirs) continue;
      const both = c.set.intersection(theirs.set);
      if (!both.empty()) out.children.set(id, { pe: c.pe, set: both });
    }
    return out;
  }

  difference(other: FieldSet): FieldSet {
    return this.minus(other, false);
  }

  recursiveDifference(other: FieldSet): FieldSet {
    return this.minus(other, true);
  }

  /** Difference, or with `recursive` RecursiveDifference; `this` when nothing is taken away. */
  private minus(other: FieldSet, recursive: boolean): FieldSet {
    if (other.bare()) return this;
    let changed = false;
    const out = new FieldSet();
    for (const [id, pe] of this.members) {
      if (other.members.has(id)) changed = true;
      else out.members.set(id, pe);
    }
    for (const [id, c] of this.children) {
      if (recursive && other.members.has(id)) {
        changed = true;
        continue;
      }
      const theirs = other.children.get(id);
      const rest = theirs ? c.set.minus(theirs.set, recursive) : c.set;
      if (rest.empty()) changed = true;
      else if (rest === c.set) out.children.set(id, c);
      else {
        changed = true;
        out.children.set(id, { pe: c.pe, set: rest });
      }
    }
    return changed ? out : this;
  }

  sortedMembers(): PathElement[] {
    return [...this.members.values()].sort(comparePathElements);
  }

  sortedChildren(): Child[] {
    return [...this.children.values()].sort((a, b) => comparePathElements(a.pe, b.pe));
  }

  /** Every member path, members of a level before its children's, each level sorted. */
  iterate(fn: (path: Path) => void, prefix: Path = []): void {
    for (const pe of this.sortedMembers()) fn([...prefix, pe]);
    for (const c of this.sortedChildren()) c.set.iterate(fn, [...prefix, c.pe]);
  }

  paths(): Path[] {
    const out: Path[] = [];
    this.iterate((p) => out.push(p));
    return out;
  }

  /** Also owns the named (struct) fields on the way to every member, not map keys. */
  ensureNamedFieldsAreMembers(node: SchemaNode | undefined): FieldSet {
    const out = new FieldSet();
    for (const [id, pe] of this.members) out.members.set(id, pe);
    for (const [id, c] of this.children) {
      let child: SchemaNode | undefined;
      if ('field' in c.pe && node?.kind === 'map') {
        const named = node.fields?.[c.pe.field];
        if (named) out.members.set(id, c.pe);
        child = named?.type ?? node.values;
      } else if ('key' in c.pe && node?.kind === 'list') {
        child = node.items;
      }
      out.children.set(id, { pe: c.pe, set: c.set.ensureNamedFieldsAreMembers(child) });
    }
    return out;
  }
}
