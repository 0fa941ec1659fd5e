// Generates packages/twin/src/schema/*.ts from the Go API types of one Kubernetes release:
//   npx tsx packages/twin/scripts/generate-schema/main.ts <k8s.io/api dir> <k8s.io/apimachinery dir>
// (git archive of kubernetes/api and kubernetes/apimachinery at tag kubernetes-1.33.x), then
// `npx prettier --write packages/twin/src/schema`. Hand-written families (custom resources) are
// not touched. Each generated file says it is generated; edit this script, not them.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Emitter } from './emit.js';
import type { GoPackage, GoType } from './go-types.js';
import { readPackage } from './go-types.js';

const [apiDir, machineryDir] = process.argv.slice(2);
if (!apiDir || !machineryDir) throw new Error('usage: main.ts <k8s.io/api> <k8s.io/apimachinery>');
const out = join(import.meta.dirname, '../../src/schema');

const importPaths: Record<string, string> = {
  'k8s.io/apimachinery/pkg/apis/meta/v1': 'meta',
  'k8s.io/api/core/v1': 'core',
  'k8s.io/apimachinery/pkg/api/resource': 'resource',
  'k8s.io/apimachinery/pkg/util/intstr': 'intstr',
  'k8s.io/apimachinery/pkg/types': 'types',
  'k8s.io/apimachinery/pkg/runtime': 'runtime',
};

const sources: [string, string][] = [
  ['meta', join(machineryDir, 'pkg/apis/meta/v1/types.go')],
  ['core', join(apiDir, 'core/v1/types.go')],
  ['apps', join(apiDir, 'apps/v1/types.go')],
  ['coordination', join(apiDir, 'coordination/v1/types.go')],
  ['discovery', join(apiDir, 'discovery/v1/types.go')],
  ['policy', join(apiDir, 'policy/v1/types.go')],
  ['authorization', join(apiDir, 'authorization/v1/types.go')],
  ['events', join(apiDir, 'events/v1/types.go')],
  ['networking', join(apiDir, 'networking/v1/types.go')],
  ['rbac', join(apiDir, 'rbac/v1/types.go')],
  ['admissionregistration', join(apiDir, 'admissionregistration/v1/types.go')],
];
const packages = new Map<string, GoPackage>(
  sources.map(([key, file]) => [key, readPackage(key, [file], importPaths)]),
);

interface Kind {
  apiVersion: string;
  type: string;
  reset?: string[];
  statusReset?: string[];
}

interface OutFile {
  file: string;
  what: string;
  pkg: string;
  roots: string[];
  kinds?: Kind[];
}

const withStatus = { reset: ['status'], statusReset: ['spec'] };
const files: OutFile[] = [
  {
    file: 'meta.ts',
    what: 'meta/v1: ObjectMeta (managedFields, ownerReferences), LabelSelector, Condition',
    pkg: 'meta',
    roots: ['ObjectMeta', 'LabelSelector', 'Condition', 'DeleteOptions'],
  },
  {
    file: 'core-volume-api.ts',
    what: 'core/v1 volume sources served from the API: configMap, secret, downwardAPI, projected, ephemeral',
    pkg: 'core',
    roots: [
      'ConfigMapVolumeSource',
      'SecretVolumeSource',
      'DownwardAPIVolumeSource',
      'ProjectedVolumeSource',
      'EphemeralVolumeSource',
    ],
  },
  {
    file: 'core-volume.ts',
    what: 'core/v1 volumes and the storage plugins they mount',
    pkg: 'core',
    roots: ['Volume'],
  },
  {
    file: 'core-container.ts',
    what: 'core/v1 containers: env, ports, probes, resources, security context',
    pkg: 'core',
    roots: ['Container', 'EphemeralContainer'],
  },
  {
    file: 'core-scheduling.ts',
    what: 'core/v1 affinity, tolerations and topology spread',
    pkg: 'core',
    roots: ['Affinity', 'Toleration', 'TopologySpreadConstraint'],
  },
  {
    file: 'core-pod.ts',
    what: 'core/v1 Pod, PodSpec and PodTemplateSpec',
    pkg: 'core',
    roots: ['Pod', 'PodTemplateSpec'],
    kinds: [
      {
        apiVersion: 'v1',
        type: 'Pod',
        reset: ['status'],
        statusReset: ['spec', 'metadata.deletionTimestamp', 'metadata.ownerReferences'],
      },
    ],
  },
  {
    file: 'core-node.ts',
    what: 'core/v1 Node',
    pkg: 'core',
    roots: ['Node'],
    kinds: [{ apiVersion: 'v1', type: 'Node', ...withStatus }],
  },
  {
    file: 'core-service.ts',
    what: 'core/v1 Service',
    pkg: 'core',
    roots: ['Service'],
    kinds: [{ apiVersion: 'v1', type: 'Service', ...withStatus }],
  },
  {
    file: 'core.ts',
    what: 'core/v1 Namespace, ConfigMap, Secret, ServiceAccount and Event',
    pkg: 'core',
    roots: ['Namespace', 'ConfigMap', 'Secret', 'ServiceAccount', 'Event'],
    kinds: [
      { apiVersion: 'v1', type: 'Namespace', ...withStatus },
      { apiVersion: 'v1', type: 'ConfigMap' },
      { apiVersion: 'v1', type: 'Secret' },
      { apiVersion: 'v1', type: 'ServiceAccount' },
      { apiVersion: 'v1', type: 'Event' },
    ],
  },
  {
    file: 'apps.ts',
    what: 'apps/v1 DaemonSet, Deployment and ControllerRevision',
    pkg: 'apps',
    roots: ['DaemonSet', 'Deployment', 'ControllerRevision'],
    kinds: [
      { apiVersion: 'apps/v1', type: 'DaemonSet', ...withStatus },
      { apiVersion: 'apps/v1', type: 'Deployment', ...withStatus },
      { apiVersion: 'apps/v1', type: 'ControllerRevision' },
    ],
  },
  {
    file: 'coordination.ts',
    what: 'coordination.k8s.io/v1 Lease (MicroTime fields)',
    pkg: 'coordination',
    roots: ['Lease'],
    kinds: [{ apiVersion: 'coordination.k8s.io/v1', type: 'Lease' }],
  },
  {
    file: 'discovery.ts',
    what: 'discovery.k8s.io/v1 EndpointSlice',
    pkg: 'discovery',
    roots: ['EndpointSlice'],
    kinds: [{ apiVersion: 'discovery.k8s.io/v1', type: 'EndpointSlice' }],
  },
  {
    file: 'policy.ts',
    what: 'policy/v1 PodDisruptionBudget and Eviction',
    pkg: 'policy',
    roots: ['PodDisruptionBudget', 'Eviction'],
    kinds: [
      { apiVersion: 'policy/v1', type: 'PodDisruptionBudget', ...withStatus },
      { apiVersion: 'policy/v1', type: 'Eviction' },
    ],
  },
  {
    file: 'authorization.ts',
    what: 'authorization.k8s.io/v1 access reviews (create-only, server/authorization/)',
    pkg: 'authorization',
    roots: [
      'SelfSubjectAccessReview',
      'SubjectAccessReview',
      'LocalSubjectAccessReview',
      'SelfSubjectRulesReview',
    ],
    kinds: [
      { apiVersion: 'authorization.k8s.io/v1', type: 'SelfSubjectAccessReview' },
      { apiVersion: 'authorization.k8s.io/v1', type: 'SubjectAccessReview' },
      { apiVersion: 'authorization.k8s.io/v1', type: 'LocalSubjectAccessReview' },
      { apiVersion: 'authorization.k8s.io/v1', type: 'SelfSubjectRulesReview' },
    ],
  },
  {
    file: 'events.ts',
    what: 'events.k8s.io/v1 Event',
    pkg: 'events',
    roots: ['Event'],
    kinds: [{ apiVersion: 'events.k8s.io/v1', type: 'Event' }],
  },
  {
    file: 'networking.ts',
    what: 'networking.k8s.io/v1 NetworkPolicy',
    pkg: 'networking',
    roots: ['NetworkPolicy'],
    kinds: [{ apiVersion: 'networking.k8s.io/v1', type: 'NetworkPolicy' }],
  },
  {
    file: 'rbac.ts',
    what: 'rbac.authorization.k8s.io/v1 Role, ClusterRole and their bindings',
    pkg: 'rbac',
    roots: ['Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding'],
    kinds: [
      { apiVersion: 'rbac.authorization.k8s.io/v1', type: 'Role' },
      { apiVersion: 'rbac.authorization.k8s.io/v1', type: 'ClusterRole' },
      { apiVersion: 'rbac.authorization.k8s.io/v1', type: 'RoleBinding' },
      { apiVersion: 'rbac.authorization.k8s.io/v1', type: 'ClusterRoleBinding' },
    ],
  },
  {
    file: 'admissionregistration.ts',
    what: 'admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy and its binding',
    pkg: 'admissionregistration',
    roots: ['ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding'],
    kinds: [
      {
        apiVersion: 'admissionregistration.k8s.io/v1',
        type: 'ValidatingAdmissionPolicy',
        ...withStatus,
      },
      { apiVersion: 'admissionregistration.k8s.io/v1', type: 'ValidatingAdmissionPolicyBinding' },
    ],
  },
];

const emitter = new Emitter(packages);
const home = new Map<GoType, OutFile>();
const codeOf = new Map<GoType, { code: string; deps: Set<GoType> }>();

function typeIn(pkg: string, name: string): GoType {
  const t = packages.get(pkg)?.types.get(name);
  if (!t) throw new Error(`no type ${pkg}.${name}`);
  return t;
}

function visit(t: GoType, file: OutFile): void {
  if (home.has(t)) return;
  home.set(t, file);
  const c = emitter.structCode(t);
  codeOf.set(t, c);
  for (const d of c.deps) visit(d, file);
}

for (const file of files) for (const root of file.roots) visit(typeIn(file.pkg, root), file);

for (const file of files) {
  const mine = [...home.entries()].filter(([, f]) => f === file).map(([t]) => t);
  const ordered: GoType[] = [];
  const done = new Set<GoType>();
  const place = (t: GoType): void => {
    if (done.has(t)) return;
    done.add(t);
    for (const d of codeOf.get(t)?.deps ?? []) if (home.get(d) === file) place(d);
    ordered.push(t);
  };
  for (const t of mine.sort((a, b) => a.name.localeCompare(b.name))) place(t);
  const imports = new Map<string, Set<string>>();
  for (const t of ordered) {
    for (const d of codeOf.get(t)?.deps ?? []) {
      const other = home.get(d);
      if (other && other !== file) {
        const set = imports.get(other.file) ?? new Set();
        set.add(emitter.nameOf(d));
        imports.set(other.file, set);
      }
    }
  }
  const body = ordered.map((t) => codeOf.get(t)?.code ?? '').join('\n\n');
  const helpers = [
    'atomicList',
    'bool',
    'deduced',
    'f',
    'mapList',
    'mapOf',
    'num',
    'setList',
    'str',
    'struct',
    'untyped',
  ].filter((h) => new RegExp(`\\b${h}\\b`).test(body));
  const kinds = file.kinds ?? [];
  const typeImports = ['MapNode', ...(kinds.length > 0 ? ['KindSchema'] : [])];
  const lines = [
    `// ${file.what}.`,
    `// GENERATED by scripts/generate-schema from the Go types of Kubernetes 1.33 (k8s.io/api,`,
    `// k8s.io/apimachinery types.go). Do not edit: change the script and regenerate.`,
    '',
    `import type { ${typeImports.join(', ')} } from './types.js';`,
    ...(helpers.length > 0 ? [`import { ${helpers.join(', ')} } from './types.js';`] : []),
    ...[...imports.entries()].map(
      ([from, names]) =>
        `import { ${[...names].sort().join(', ')} } from './${from.replace(/\.ts$/, '.js')}';`,
    ),
    '',
    body,
  ];
  if (kinds.length > 0) {
    lines.push('', 'export const kinds: KindSchema[] = [');
    for (const k of kinds) {
      const t = typeIn(file.pkg, k.type);
      const extra = [
        k.reset ? `resetFields: ${JSON.stringify(k.reset)}` : '',
        k.statusReset ? `statusResetFields: ${JSON.stringify(k.statusReset)}` : '',
      ].filter((s) => s !== '');
      lines.push(
        `  { apiVersion: '${k.apiVersion}', kind: '${k.type}', root: ${emitter.nameOf(t)}${extra.length ? `, ${extra.join(', ')}` : ''} },`,
      );
    }
    lines.push('];');
  }
  writeFileSync(join(out, file.file), `${lines.join('\n')}\n`);
  process.stdout.write(`${file.file}: ${ordered.length} types\n`);
}
