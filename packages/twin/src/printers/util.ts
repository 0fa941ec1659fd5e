// Small formatting helpers shared by the per-kind printers, ported from kubectl's printers.go.

import type { JsonValue, KubeObject } from '../apimachinery/types.js';
import { asArray, asRecord, asString } from '../apimachinery/types.js';

export interface Column {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  format?: string;
  priority?: number;
  description?: string;
}

export interface Printer {
  columns: readonly Column[];
  cells(obj: KubeObject, now: number): JsonValue[];
}

export const nameColumn: Column = {
  name: 'Name',
  type: 'string',
  format: 'name',
  description: 'Name must be unique within a namespace.',
};
export const ageColumn: Column = {
  name: 'Age',
  type: 'string',
  description:
    'CreationTimestamp is a timestamp representing the server time when this object was created.',
};

/** layoutContainerCells: container names and images, comma-joined. */
export function containerCells(podSpec: unknown): [string, string] {
  const containers = asArray(asRecord(podSpec)['containers']).map(asRecord);
  return [
    containers.map((c) => asString(c['name'])).join(','),
    containers.map((c) => asString(c['image'])).join(','),
  ];
}

/** listWithMoreString: at most three entries, then " + N more...". */
export function listWithMore(list: readonly string[], max = 3): string {
  const shown = list.slice(0, max).join(',');
  if (list.length > max) return `${shown} + ${list.length - max} more...`;
  return shown === '' ? '<unset>' : shown;
}

export function int(value: unknown): JsonValue {
  return typeof value === 'number' ? Math.trunc(value) : 0;
}

export function orNone(value: string): string {
  return value === '' ? '<none>' : value;
}
