// The 409 an apply conflict answers (managedfields/internal/conflict.go, apierrors.NewApplyConflict):
// `Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using apps/v1: .spec…`,
// one FieldManagerConflict cause per field.

import { ApiError } from '../apimachinery/errors.js';
import { parseManagerId } from './managed.js';
import { pathString } from './path-element.js';
import type { Conflict } from './updater.js';

/** printManager: `"name"`, `with subresource "status"`, `using apps/v1` for updaters. */
export function printManager(id: string): string {
  let m;
  try {
    m = parseManagerId(id);
  } catch {
    return JSON.stringify(id);
  }
  let s = JSON.stringify(m.manager);
  if (m.subresource) s += ` with subresource ${JSON.stringify(m.subresource)}`;
  if (m.operation === 'Update') s += ` using ${m.apiVersion ?? ''}`;
  return s;
}

export function applyConflict(conflicts: readonly Conflict[]): ApiError {
  const causes = conflicts.map((c) => ({
    reason: 'FieldManagerConflict',
    message: `conflict with ${printManager(c.manager)}`,
    field: pathString(c.path),
  }));
  let message: string;
  const first = conflicts[0];
  if (conflicts.length === 1 && first) {
    message = `Apply failed with 1 conflict: conflict with ${printManager(first.manager)}: ${pathString(first.path)}`;
  } else {
    const byManager = new Map<string, string[]>();
    for (const c of conflicts)
      byManager.set(c.manager, [...(byManager.get(c.manager) ?? []), pathString(c.path)]);
    const lines: string[] = [];
    for (const manager of [...byManager.keys()].sort()) {
      lines.push(`conflicts with ${printManager(manager)}:`);
      for (const p of byManager.get(manager) ?? []) lines.push(`- ${p}`);
    }
    message = `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
  }
  return new ApiError(409, 'Conflict', message, { causes });
}
