/**
 * The canary DaemonSet: the original's pods, mounting the canary's ConfigMap (or passing
 * --proxy-mode=nftables), on the nodes labelled nftables only. Its selector adds a label the
 * original's pods lack, so it never claims them; the original's selector does match the canary's
 * pods, but a controller adopts only pods without a controllerRef (design-proposals
 * controller-ref.md), and each canary pod has one.
 */
import type { UpdateStrategy } from './actions.js';
import { CANARY_LABEL, CANARY_LABELS } from './canary-configmap.js';
import type { Container, KubeDaemonSet, PodSpec } from './kube.js';
import { kubeProxyContainer } from './kube-proxy-config.js';
import {
  MIGRATION_VALUES,
  podSpecWithRequired,
  requiredAffinity,
  withoutExclusion,
} from './node-affinity.js';
import { CANARY_NAME } from './permissions.js';

/** The original's update strategy, kept on the canary for the final hand-back (it survives Redis). */
export const ORIGINAL_STRATEGY_ANNOTATION = 'proxy-migrate.io/original-update-strategy';

/**
 * Labels that make a reconciler own an object: the add-on manager prunes what carries
 * `addonmanager.kubernetes.io/mode: Reconcile` and is not in its manifests (kube-addons.sh,
 * `apply --prune -l`), so a copied label would get the canary deleted.
 */
const OWNER_LABELS = [
  'addonmanager.kubernetes.io/mode',
  'app.kubernetes.io/managed-by',
  'eks.amazonaws.com/component',
  'helm.sh/chart',
  'kubernetes.azure.com/managedby',
];

/** Annotations that describe the original object, not the pods: wrong on a copy. */
const OBJECT_ANNOTATIONS = [
  'deprecated.daemonset.template.generation',
  'kubectl.kubernetes.io/last-applied-configuration',
];

function omit<T>(
  record: Readonly<Record<string, T>> | undefined,
  drop: (key: string) => boolean,
): Record<string, T> {
  return Object.fromEntries(Object.entries(record ?? {}).filter(([k]) => !drop(k)));
}

/** The update strategy as the API means it: RollingUpdate when none is written. */
export function strategyOf(ds: KubeDaemonSet): UpdateStrategy {
  const s = ds.spec?.updateStrategy;
  const type = s?.type === 'OnDelete' ? 'OnDelete' : 'RollingUpdate';
  return type === 'RollingUpdate' && s?.rollingUpdate !== undefined
    ? { type, rollingUpdate: { ...s.rollingUpdate } }
    : { type };
}

/** A DaemonSet as it can be written back: no server-set metadata, no status. */
export function cleanDaemonSet(ds: KubeDaemonSet): KubeDaemonSet {
  const { name, namespace, labels, annotations } = ds.metadata;
  const kept = omit(annotations, (k) => OBJECT_ANNOTATIONS.includes(k));
  return {
    metadata: {
      name,
      ...(namespace === undefined ? {} : { namespace }),
      ...(labels === undefined ? {} : { labels: { ...labels } }),
      ...(Object.keys(kept).length === 0 ? {} : { annotations: kept }),
    },
    ...(ds.spec === undefined ? {} : { spec: ds.spec }),
  };
}

export interface CanaryDaemonSetInput {
  original: KubeDaemonSet;
  label: string;
  /** Config file: the ConfigMap whose volume now mounts the canary's. */
  configMap?: string;
  /** Flags only: the kube-proxy container, rewritten for nftables. */
  container?: Container;
  originalStrategy: UpdateStrategy;
}

function canaryPodSpec(input: CanaryDaemonSetInput, spec: PodSpec): PodSpec {
  const { original, label, configMap, container } = input;
  const kubeProxy = kubeProxyContainer(original)?.name;
  const withVolumes: PodSpec = {
    ...spec,
    nodeSelector: { ...spec.nodeSelector, [label]: MIGRATION_VALUES.nftables },
    containers: spec.containers.map((c) =>
      container !== undefined && c.name === kubeProxy ? container : c,
    ),
    ...(spec.volumes === undefined
      ? {}
      : {
          volumes: spec.volumes.map((v) =>
            configMap !== undefined && v.configMap?.name === configMap
              ? { ...v, configMap: { ...v.configMap, name: CANARY_NAME } }
              : v,
          ),
        }),
  };
  // The original may carry the NotIn already (a later plan): on the canary it would exclude
  // exactly the nodes it is for.
  return podSpecWithRequired(withVolumes, withoutExclusion(requiredAffinity(original), label));
}

export function canaryDaemonSet(input: CanaryDaemonSetInput): KubeDaemonSet {
  const { original } = input;
  const clean = cleanDaemonSet(original);
  const spec = original.spec ?? {};
  const template = spec.template ?? {};
  const { creationTimestamp: _ts, ...templateMeta } = template.metadata ?? {};
  const selector = spec.selector ?? {};
  return {
    metadata: {
      name: CANARY_NAME,
      namespace: original.metadata.namespace ?? 'kube-system',
      labels: { ...omit(clean.metadata.labels, (k) => OWNER_LABELS.includes(k)), ...CANARY_LABELS },
      annotations: {
        ...omit(clean.metadata.annotations, (k) => k.startsWith('meta.helm.sh/')),
        [ORIGINAL_STRATEGY_ANNOTATION]: JSON.stringify(input.originalStrategy),
      },
    },
    spec: {
      ...spec,
      selector: { ...selector, matchLabels: { ...selector.matchLabels, [CANARY_LABEL]: 'true' } },
      template: {
        ...template,
        metadata: { ...templateMeta, labels: { ...templateMeta.labels, [CANARY_LABEL]: 'true' } },
        spec: canaryPodSpec(input, template.spec ?? { containers: [] }),
      },
      // One node at a time if the canary itself ever changes: it runs only on migrated nodes.
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } },
    },
  };
}

/** The original strategy a canary recorded, if it is one proxy-migrate wrote. */
export function recordedStrategy(canary: KubeDaemonSet | null): UpdateStrategy | undefined {
  const raw = canary?.metadata.annotations?.[ORIGINAL_STRATEGY_ANNOTATION];
  if (raw === undefined) return undefined;
  try {
    const value = JSON.parse(raw) as Partial<UpdateStrategy>;
    if (value.type === 'OnDelete') return { type: 'OnDelete' };
    if (value.type === 'RollingUpdate')
      return value.rollingUpdate === undefined
        ? { type: 'RollingUpdate' }
        : { type: 'RollingUpdate', rollingUpdate: value.rollingUpdate };
  } catch {
    // A hand-edited annotation: fall back to what the original says now.
  }
  return undefined;
}
