// meta.k8s.io/v1 Table responses, which is what kubectl prints `get` output from: columns and
// cells rendered on the server (kubectl 1.32 has no compiled-in printers), one row per object.

import { ageSince } from './age.js';
import { appsPrinters } from './apps.js';
import { coordinationPrinters } from './coordination.js';
import { corePrinters } from './core.js';
import { policyPrinters } from './policy.js';
import type { Column, Printer } from './util.js';
import { ageColumn, nameColumn } from './util.js';
import type { ResourceDef } from '../registry/resources.js';
import type { JsonObject, JsonValue, KubeObject } from '../apimachinery/types.js';

export type { Column, Printer } from './util.js';

export type IncludeObject = 'None' | 'Metadata' | 'Object';

const genericPrinter: Printer = {
  columns: [nameColumn, ageColumn],
  cells: (obj, now) => [obj.metadata.name ?? '', ageSince(obj.metadata.creationTimestamp, now)],
};

const printers: Record<string, Printer> = {
  ...corePrinters,
  ...appsPrinters,
  ...coordinationPrinters,
  ...policyPrinters,
};

export function printerFor(def: ResourceDef): Printer {
  return printers[def.plural] ?? genericPrinter;
}

function columnJson(c: Column): JsonObject {
  return {
    name: c.name,
    type: c.type,
    format: c.format ?? '',
    description: c.description ?? '',
    priority: c.priority ?? 0,
  };
}

function rowObject(obj: KubeObject, include: IncludeObject): JsonValue | undefined {
  if (include === 'None') return undefined;
  if (include === 'Object') return obj as unknown as JsonObject;
  return {
    kind: 'PartialObjectMetadata',
    apiVersion: 'meta.k8s.io/v1',
    metadata: obj.metadata as JsonObject,
  };
}

export interface TableOptions {
  include: IncludeObject;
  now: number;
  resourceVersion: string;
  continueToken?: string | undefined;
  remaining?: number | undefined;
  /** Watch events after the first carry no column definitions, as the apiserver sends them. */
  withColumns?: boolean;
}

export function toTable(
  def: ResourceDef,
  items: readonly KubeObject[],
  options: TableOptions,
): JsonObject {
  const printer = printerFor(def);
  const metadata: JsonObject = { resourceVersion: options.resourceVersion };
  if (options.continueToken) metadata['continue'] = options.continueToken;
  if (options.remaining !== undefined) metadata['remainingItemCount'] = options.remaining;
  const rows = items.map((obj) => {
    const row: JsonObject = { cells: printer.cells(obj, options.now) };
    const object = rowObject(obj, options.include);
    if (object !== undefined) row['object'] = object;
    return row;
  });
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata,
    columnDefinitions: options.withColumns === false ? [] : printer.columns.map(columnJson),
    rows,
  };
}
