/**
 * What `proxy-migrate connect` creates on a target cluster, as data: the bot's two Namespaces
 * (its own, and the probes' one labelled for Pod Security `privileged`), its ServiceAccount, the
 * RBAC of rbac-manifest.ts (the same objects deploy/rbac.yaml holds), and a long-lived token
 * Secret the tokens controller fills. Then the kubeconfig entry that uses the token: a bearer
 * token and the cluster's CA, no exec credential plugin (EKS, GKE and AKS kubeconfigs rely on
 * plugins the bot's image does not carry). Pure: no I/O.
 */
import { rbacObjects, type RbacTarget } from './rbac-manifest.js';

export const TOKEN_SECRET_SUFFIX = '-token';

export interface ConnectObject {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  [field: string]: unknown;
}

const managed = { 'app.kubernetes.io/managed-by': 'proxy-migrate-connect' };

function podSecurity(level: 'restricted' | 'privileged'): Record<string, string> {
  return {
    'pod-security.kubernetes.io/enforce': level,
    'pod-security.kubernetes.io/audit': level,
    'pod-security.kubernetes.io/warn': level,
  };
}

export function tokenSecretName(target: RbacTarget): string {
  return `${target.serviceAccount.name}${TOKEN_SECRET_SUFFIX}`;
}

/** Every object, in the order they must be created (Namespaces first, the token Secret last). */
export function connectObjects(target: RbacTarget): ConnectObject[] {
  const { name, namespace } = target.serviceAccount;
  const namespaces: ConnectObject[] = [
    {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: namespace, labels: { ...managed, ...podSecurity('restricted') } },
    },
  ];
  if (target.probeNamespace !== namespace)
    namespaces.push({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: {
        name: target.probeNamespace,
        labels: { ...managed, ...podSecurity('privileged') },
      },
    });
  return [
    ...namespaces,
    {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name, namespace, labels: managed },
    },
    ...rbacObjects(target).map(({ object }) => ({
      ...object,
      metadata: { ...object.metadata, labels: managed },
    })),
    {
      apiVersion: 'v1',
      kind: 'Secret',
      type: 'kubernetes.io/service-account-token',
      metadata: {
        name: tokenSecretName(target),
        namespace,
        labels: managed,
        annotations: { 'kubernetes.io/service-account.name': name },
      },
    },
  ];
}

/** The cluster as the kubeconfig entry names it: server and how its certificate is checked. */
export interface ClusterEndpoint {
  server: string;
  /** Base64 PEM, from the token Secret's ca.crt or the source kubeconfig. */
  certificateAuthorityData?: string;
  /** Only when the source kubeconfig skipped verification and no CA is known. */
  insecureSkipTlsVerify?: boolean;
  tlsServerName?: string;
}

export interface KubeconfigFile {
  apiVersion?: string;
  kind?: string;
  clusters?: { name: string; cluster: Record<string, unknown> }[];
  users?: { name: string; user: Record<string, unknown> }[];
  contexts?: { name: string; context: Record<string, unknown> }[];
  'current-context'?: string;
  [key: string]: unknown;
}

/**
 * The kubeconfig with one cluster, user and context named `name` (replaced if there, others
 * kept), the user a bearer token. The same inputs give the same file: rerunning is a no-op.
 */
export function withKubeconfigEntry(
  existing: KubeconfigFile | undefined,
  name: string,
  endpoint: ClusterEndpoint,
  token: string,
  namespace: string,
): KubeconfigFile {
  const base: KubeconfigFile = existing ?? { apiVersion: 'v1', kind: 'Config', preferences: {} };
  const cluster: Record<string, unknown> = { server: endpoint.server };
  if (endpoint.certificateAuthorityData !== undefined)
    cluster['certificate-authority-data'] = endpoint.certificateAuthorityData;
  else if (endpoint.insecureSkipTlsVerify === true) cluster['insecure-skip-tls-verify'] = true;
  if (endpoint.tlsServerName !== undefined) cluster['tls-server-name'] = endpoint.tlsServerName;
  const user = `${name}-proxy-migrate`;
  const put = <T extends { name: string }>(list: T[] | undefined, entry: T): T[] => {
    const others = (list ?? []).filter((e) => e.name !== entry.name);
    return [...others, entry].sort((a, b) => a.name.localeCompare(b.name));
  };
  return {
    ...base,
    apiVersion: base.apiVersion ?? 'v1',
    kind: base.kind ?? 'Config',
    clusters: put(base.clusters, { name, cluster }),
    users: put(base.users, { name: user, user: { token } }),
    contexts: put(base.contexts, { name, context: { cluster: name, user, namespace } }),
    'current-context': base['current-context'] ?? name,
  };
}
