// The one table of API resources the twin serves. Discovery, OpenAPI, routing, tables and patch
// rules all read it, so adding a resource is one row here (plus a printer if it deserves columns).

export const allVerbs = [
  'create',
  'delete',
  'deletecollection',
  'get',
  'list',
  'patch',
  'update',
  'watch',
] as const;
export type Verb = (typeof allVerbs)[number];

export type Subresource = 'status';

/** A subresource that takes another kind than its resource's (pods/eviction takes an Eviction). */
export interface KindedSubresource {
  name: string;
  group: string;
  version: string;
  kind: string;
  verbs: readonly Verb[];
}

export interface ResourceDef {
  group: string;
  version: string;
  kind: string;
  plural: string;
  singular: string;
  shortNames: readonly string[];
  namespaced: boolean;
  verbs: readonly Verb[];
  subresources: readonly Subresource[];
  /** Listed in discovery with their own kind; each has its own handler in the server. */
  kindedSubresources: readonly KindedSubresource[];
  categories: readonly string[];
  /** metadata.generation bumps on spec changes (workloads and custom resources). */
  hasGeneration: boolean;
  /** Custom resources reject strategic merge patches with 415, as the real apiserver does. */
  strategicMerge: boolean;
}

type Row = Partial<ResourceDef> & Pick<ResourceDef, 'kind' | 'plural' | 'namespaced'>;

function row(group: string, version: string, r: Row): ResourceDef {
  return {
    group,
    version,
    singular: r.kind.toLowerCase(),
    shortNames: [],
    verbs: allVerbs,
    subresources: [],
    kindedSubresources: [],
    categories: [],
    hasGeneration: false,
    strategicMerge: true,
    ...r,
  };
}

export const resources: readonly ResourceDef[] = [
  row('', 'v1', { kind: 'Namespace', plural: 'namespaces', namespaced: false, shortNames: ['ns'] }),
  row('', 'v1', {
    kind: 'Node',
    plural: 'nodes',
    namespaced: false,
    shortNames: ['no'],
    subresources: ['status'],
  }),
  row('', 'v1', {
    kind: 'Pod',
    plural: 'pods',
    namespaced: true,
    shortNames: ['po'],
    subresources: ['status'],
    kindedSubresources: [
      { name: 'eviction', group: 'policy', version: 'v1', kind: 'Eviction', verbs: ['create'] },
    ],
    categories: ['all'],
  }),
  row('', 'v1', {
    kind: 'Service',
    plural: 'services',
    namespaced: true,
    shortNames: ['svc'],
    categories: ['all'],
  }),
  row('', 'v1', { kind: 'ConfigMap', plural: 'configmaps', namespaced: true, shortNames: ['cm'] }),
  row('', 'v1', { kind: 'Secret', plural: 'secrets', namespaced: true }),
  row('', 'v1', { kind: 'Event', plural: 'events', namespaced: true, shortNames: ['ev'] }),
  row('', 'v1', {
    kind: 'ServiceAccount',
    plural: 'serviceaccounts',
    namespaced: true,
    shortNames: ['sa'],
  }),
  row('discovery.k8s.io', 'v1', {
    kind: 'EndpointSlice',
    plural: 'endpointslices',
    namespaced: true,
  }),
  row('apps', 'v1', {
    kind: 'DaemonSet',
    plural: 'daemonsets',
    namespaced: true,
    shortNames: ['ds'],
    subresources: ['status'],
    categories: ['all'],
    hasGeneration: true,
  }),
  row('apps', 'v1', {
    kind: 'Deployment',
    plural: 'deployments',
    namespaced: true,
    shortNames: ['deploy'],
    subresources: ['status'],
    categories: ['all'],
    hasGeneration: true,
  }),
  row('apps', 'v1', {
    kind: 'ControllerRevision',
    plural: 'controllerrevisions',
    namespaced: true,
  }),
  row('coordination.k8s.io', 'v1', { kind: 'Lease', plural: 'leases', namespaced: true }),
  row('policy', 'v1', {
    kind: 'PodDisruptionBudget',
    plural: 'poddisruptionbudgets',
    namespaced: true,
    shortNames: ['pdb'],
    subresources: ['status'],
    hasGeneration: true,
  }),
  // A view of the core Events above (same storage): registry/event-views.ts.
  row('events.k8s.io', 'v1', {
    kind: 'Event',
    plural: 'events',
    namespaced: true,
    shortNames: ['ev'],
  }),
  // authorization.k8s.io: create-only reviews, never stored (server/authorization/).
  ...(
    [
      ['LocalSubjectAccessReview', true],
      ['SelfSubjectAccessReview', false],
      ['SelfSubjectRulesReview', false],
      ['SubjectAccessReview', false],
    ] as const
  ).map(([kind, namespaced]) =>
    row('authorization.k8s.io', 'v1', {
      kind,
      plural: `${kind.toLowerCase()}s`,
      namespaced,
      verbs: ['create'],
    }),
  ),
  // The deploy base's kinds (deploy/ in the product): served and validated, never enforced — the
  // twin authorizes every request (AlwaysAllow), routes no pod traffic through network policy
  // and evaluates no CEL.
  row('networking.k8s.io', 'v1', {
    kind: 'NetworkPolicy',
    plural: 'networkpolicies',
    namespaced: true,
    shortNames: ['netpol'],
    hasGeneration: true,
  }),
  ...(
    [
      ['Role', true],
      ['RoleBinding', true],
      ['ClusterRole', false],
      ['ClusterRoleBinding', false],
    ] as const
  ).map(([kind, namespaced]) =>
    row('rbac.authorization.k8s.io', 'v1', { kind, plural: `${kind.toLowerCase()}s`, namespaced }),
  ),
  row('admissionregistration.k8s.io', 'v1', {
    kind: 'ValidatingAdmissionPolicy',
    plural: 'validatingadmissionpolicies',
    namespaced: false,
    subresources: ['status'],
    categories: ['api-extensions'],
    hasGeneration: true,
  }),
  row('admissionregistration.k8s.io', 'v1', {
    kind: 'ValidatingAdmissionPolicyBinding',
    plural: 'validatingadmissionpolicybindings',
    namespaced: false,
    categories: ['api-extensions'],
    hasGeneration: true,
  }),
  row('monitoring.coreos.com', 'v1', {
    kind: 'PrometheusRule',
    plural: 'prometheusrules',
    namespaced: true,
    shortNames: ['promrule'],
    hasGeneration: true,
    strategicMerge: false,
  }),
];

export function groupVersion(def: Pick<ResourceDef, 'group' | 'version'>): string {
  return def.group === '' ? def.version : `${def.group}/${def.version}`;
}

const byGvr = new Map(resources.map((def) => [`${groupVersion(def)}/${def.plural}`, def]));
const byGvk = new Map(resources.map((def) => [`${groupVersion(def)}/${def.kind}`, def]));

export function findResource(gv: string, plural: string): ResourceDef | undefined {
  return byGvr.get(`${gv}/${plural}`);
}

export function findByKind(apiVersion: string, kind: string): ResourceDef | undefined {
  return byGvk.get(`${apiVersion}/${kind}`);
}

export function resourceFor(plural: string): ResourceDef {
  const def = resources.find((r) => r.plural === plural);
  if (!def) throw new Error(`twin: no resource ${plural}`);
  return def;
}

/** Group versions in discovery order: the core group first, then named groups as listed. */
export function groupVersions(): { group: string; version: string }[] {
  const seen = new Map<string, { group: string; version: string }>();
  for (const def of resources) {
    seen.set(groupVersion(def), { group: def.group, version: def.version });
  }
  return [...seen.values()];
}
