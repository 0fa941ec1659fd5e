// Every served kind's schema, by apiVersion and kind. Adding a kind: write its family file (a
// struct per type, then `export const kinds`) and list it here. A kind without a schema is treated
// as structured-merge-diff treats a CRD without one: every field is accepted, maps merge per key
// and lists are atomic.

import type { KindSchema, MapNode } from './types.js';
import { kinds as admissionregistration } from './admissionregistration.js';
import { kinds as apps } from './apps.js';
import { kinds as authorization } from './authorization.js';
import { kinds as coordination } from './coordination.js';
import { kinds as core } from './core.js';
import { kinds as node } from './core-node.js';
import { kinds as pod } from './core-pod.js';
import { kinds as service } from './core-service.js';
import { kinds as discovery } from './discovery.js';
import { kinds as events } from './events.js';
import { kinds as monitoring } from './monitoring.js';
import { kinds as networking } from './networking.js';
import { kinds as policy } from './policy.js';
import { kinds as rbac } from './rbac.js';

const all: readonly KindSchema[] = [
  ...core,
  ...pod,
  ...node,
  ...service,
  ...apps,
  ...coordination,
  ...discovery,
  ...policy,
  ...authorization,
  ...events,
  ...monitoring,
  ...networking,
  ...rbac,
  ...admissionregistration,
];

const byKey = new Map(all.map((k) => [`${k.apiVersion}/${k.kind}`, k]));

export function kindSchema(apiVersion: string, kind: string): KindSchema | undefined {
  return byKey.get(`${apiVersion}/${kind}`);
}

/** The root to walk an object of this kind with; undefined means no schema (all deduced). */
export function rootNode(apiVersion: string, kind: string): MapNode | undefined {
  return kindSchema(apiVersion, kind)?.root;
}
