/**
 * The bot's RBAC as Kubernetes objects, built from src/core/permissions.ts and nothing else: a
 * ClusterRole for the cluster-wide reads and node patches, one Role per namespace the bot works
 * in (kube-proxy's, and the probe namespace, which follows probe.namespace), and their bindings to
 * the bot's ServiceAccount. deploy/rbac.yaml is this rendered (scripts/render-install.ts) and
 * `proxy-migrate connect` applies it, so the two never drift. Pure: no I/O.
 */
import { KUBE_SYSTEM } from './cluster-overview.js';
import { allPermissions, type Permission, type PermissionScope } from './permissions.js';

export const BOT_NAME = 'proxy-migrate';
export const BOT_NAMESPACE = 'proxy-migrate';

export interface RbacTarget {
  /** The ServiceAccount the bindings name. */
  serviceAccount: { name: string; namespace: string };
  kubeProxyNamespace: string;
  probeNamespace: string;
}

export const defaultRbacTarget: RbacTarget = {
  serviceAccount: { name: BOT_NAME, namespace: BOT_NAMESPACE },
  kubeProxyNamespace: KUBE_SYSTEM,
  probeNamespace: 'proxy-migrate-probes',
};

export interface PolicyRule {
  apiGroups: string[];
  resources: string[];
  verbs: string[];
  resourceNames?: string[];
}

export interface RbacObject {
  apiVersion: 'rbac.authorization.k8s.io/v1';
  kind: 'ClusterRole' | 'ClusterRoleBinding' | 'Role' | 'RoleBinding';
  metadata: { name: string; namespace?: string };
  rules?: PolicyRule[];
  roleRef?: { apiGroup: 'rbac.authorization.k8s.io'; kind: 'ClusterRole' | 'Role'; name: string };
  subjects?: { kind: 'ServiceAccount'; name: string; namespace: string }[];
}

/** A rule and the reason for it, as the rendered file's comment says. */
export interface ExplainedRule {
  rule: PolicyRule;
  why: string;
}

function ruleOf(p: Permission): ExplainedRule {
  return {
    rule: {
      apiGroups: [p.apiGroup],
      resources: [p.resource],
      ...(p.resourceNames === undefined ? {} : { resourceNames: [...p.resourceNames] }),
      verbs: [...p.verbs],
    },
    why: p.why,
  };
}

function namespaceOf(scope: PermissionScope, target: RbacTarget): string | undefined {
  if (scope === 'cluster') return undefined;
  return scope === 'kube-proxy-namespace' ? target.kubeProxyNamespace : target.probeNamespace;
}

/** The rules by where they apply: undefined is cluster-wide; namespaces in first-use order. */
export function rulesByNamespace(
  target: RbacTarget = defaultRbacTarget,
): Map<string | undefined, ExplainedRule[]> {
  const out = new Map<string | undefined, ExplainedRule[]>([[undefined, []]]);
  for (const p of allPermissions()) {
    const ns = namespaceOf(p.scope, target);
    const list = out.get(ns) ?? [];
    list.push(ruleOf(p));
    out.set(ns, list);
  }
  return out;
}

/** Every RBAC object, ClusterRole first, each Role followed by its binding. */
export function rbacObjects(target: RbacTarget = defaultRbacTarget): {
  object: RbacObject;
  why: string[];
}[] {
  const subjects = [{ kind: 'ServiceAccount' as const, ...target.serviceAccount }];
  const out: { object: RbacObject; why: string[] }[] = [];
  for (const [namespace, rules] of rulesByNamespace(target)) {
    const kind = namespace === undefined ? 'ClusterRole' : 'Role';
    const metadata = namespace === undefined ? { name: BOT_NAME } : { name: BOT_NAME, namespace };
    out.push({
      object: {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind,
        metadata,
        rules: rules.map((r) => r.rule),
      },
      why: rules.map((r) => r.why),
    });
    out.push({
      object: {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: namespace === undefined ? 'ClusterRoleBinding' : 'RoleBinding',
        metadata,
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind, name: BOT_NAME },
        subjects,
      },
      why: [],
    });
  }
  return out;
}
