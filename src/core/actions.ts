/**
 * ClusterAction: every write proxy-migrate can make to a cluster, as data. Nothing in the product
 * writes to a cluster except by applying one of these (the adapter's `apply` takes nothing else),
 * so the journal of a run is the complete list of what it changed, and `invert()` of each entry,
 * newest first, is the way back. Each action carries the state it replaces (`previous`), read from
 * the live object just before it is applied.
 */
import type { KubeDaemonSet } from './kube.js';

/** An object in a namespace. */
export interface ObjectRef {
  namespace: string;
  name: string;
}

/** A ConfigMap's content as the canary needs it: data plus the labels that mark it as ours. */
export interface ConfigMapContent {
  data: Record<string, string>;
  labels: Record<string, string>;
  annotations: Record<string, string>;
}

export interface UpdateStrategy {
  type: 'RollingUpdate' | 'OnDelete';
  rollingUpdate?: { maxUnavailable?: number | string; maxSurge?: number | string };
}

/** `spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution`. */
export interface NodeSelector {
  nodeSelectorTerms: NodeSelectorTerm[];
}

export interface NodeSelectorTerm {
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
  matchFields?: { key: string; operator: string; values?: string[] }[];
}

/** What a run writes for itself and takes away again: never part of a rollback. */
export const housekeepingKinds = [
  'create-probe-pod',
  'delete-probe-pod',
  'create-probe-daemonset',
  'delete-probe-daemonset',
  'acquire-lease',
  'renew-lease',
  'release-lease',
  'annotate-node',
] as const;

export type ClusterAction =
  | {
      kind: 'ensure-configmap';
      ref: ObjectRef;
      desired: ConfigMapContent;
      /** The ConfigMap as it was, or null when this action creates it. */
      previous: (ConfigMapContent & { resourceVersion: string }) | null;
    }
  | {
      kind: 'delete-configmap';
      ref: ObjectRef;
      previous: ConfigMapContent & { resourceVersion: string };
    }
  | {
      kind: 'ensure-daemonset';
      ref: ObjectRef;
      desired: KubeDaemonSet;
      previous: { manifest: KubeDaemonSet; resourceVersion: string } | null;
    }
  | {
      kind: 'delete-daemonset';
      ref: ObjectRef;
      previous: { manifest: KubeDaemonSet; resourceVersion: string };
    }
  | {
      kind: 'set-update-strategy';
      ref: ObjectRef;
      strategy: UpdateStrategy;
      previous: UpdateStrategy;
      /** The DaemonSet's resourceVersion the change was computed from (a precondition). */
      basedOn: string;
    }
  | {
      kind: 'set-node-affinity';
      ref: ObjectRef;
      /** The required node affinity after the change; null removes it. */
      required: NodeSelector | null;
      previous: NodeSelector | null;
      basedOn: string;
      /** Why, for people: "exclude nodes labelled proxy-migrate.io/mode". */
      purpose: string;
    }
  | { kind: 'label-node'; node: string; key: string; value: string; previous: string | null }
  | { kind: 'unlabel-node'; node: string; key: string; previous: string }
  | {
      kind: 'annotate-node';
      node: string;
      /** null removes the annotation. */
      annotations: Record<string, string | null>;
      previous: Record<string, string | null>;
    }
  | { kind: 'create-probe-pod'; ref: ObjectRef; node: string; image: string; runId: string }
  | { kind: 'delete-probe-pod'; ref: ObjectRef; node: string }
  | {
      kind: 'create-probe-daemonset';
      ref: ObjectRef;
      image: string;
      runId: string;
      /** The nodes its pods go to; null: every node (no node affinity). */
      nodes: string[] | null;
    }
  | { kind: 'delete-probe-daemonset'; ref: ObjectRef; runId: string }
  | {
      kind: 'acquire-lease';
      ref: ObjectRef;
      holder: string;
      durationSeconds: number;
      /** The lease as it was: null when absent; an expired holder's lease is taken over. */
      previous: { holder: string; resourceVersion: string; transitions: number } | null;
    }
  | { kind: 'renew-lease'; ref: ObjectRef; holder: string; resourceVersion: string }
  | { kind: 'release-lease'; ref: ObjectRef; holder: string; resourceVersion: string };

export type ActionKind = ClusterAction['kind'];
export type ActionOf<K extends ActionKind> = Extract<ClusterAction, { kind: K }>;

/** Housekeeping actions keep a run going; migration actions change what the cluster runs. */
export function isHousekeeping(action: ClusterAction): boolean {
  return (housekeepingKinds as readonly string[]).includes(action.kind);
}

/** The node an action is about, for the actions that concern one node. */
export function nodeOf(action: ClusterAction): string | undefined {
  switch (action.kind) {
    case 'label-node':
    case 'unlabel-node':
    case 'annotate-node':
    case 'create-probe-pod':
    case 'delete-probe-pod':
      return action.node;
    default:
      return undefined;
  }
}

function restoreConfigMap(
  ref: ObjectRef,
  previous: ConfigMapContent & { resourceVersion: string },
): ClusterAction {
  const { resourceVersion: _rv, ...content } = previous;
  return { kind: 'ensure-configmap', ref, desired: content, previous: null };
}

/**
 * The undo of an action: applying it after the action puts the cluster back as it was. Actions
 * that leave nothing to undo (renewals, probe-pod deletes) return undefined. The undo's own
 * `previous` is unknown until it is applied: the engine reads it again from the live object.
 */
export function invert(action: ClusterAction): ClusterAction | undefined {
  switch (action.kind) {
    case 'ensure-configmap':
      return action.previous === null
        ? {
            kind: 'delete-configmap',
            ref: action.ref,
            previous: { ...action.desired, resourceVersion: '' },
          }
        : restoreConfigMap(action.ref, action.previous);
    case 'delete-configmap':
      return restoreConfigMap(action.ref, action.previous);
    case 'ensure-daemonset':
      return action.previous === null
        ? {
            kind: 'delete-daemonset',
            ref: action.ref,
            previous: { manifest: action.desired, resourceVersion: '' },
          }
        : {
            kind: 'ensure-daemonset',
            ref: action.ref,
            desired: action.previous.manifest,
            previous: null,
          };
    case 'delete-daemonset':
      return {
        kind: 'ensure-daemonset',
        ref: action.ref,
        desired: action.previous.manifest,
        previous: null,
      };
    case 'set-update-strategy':
      return { ...action, strategy: action.previous, previous: action.strategy, basedOn: '' };
    case 'set-node-affinity':
      return {
        ...action,
        required: action.previous,
        previous: action.required,
        basedOn: '',
        purpose: `undo: ${action.purpose}`,
      };
    case 'label-node':
      return action.previous === null
        ? { kind: 'unlabel-node', node: action.node, key: action.key, previous: action.value }
        : { ...action, value: action.previous, previous: action.value };
    case 'unlabel-node':
      return {
        kind: 'label-node',
        node: action.node,
        key: action.key,
        value: action.previous,
        previous: null,
      };
    case 'annotate-node':
      return { ...action, annotations: action.previous, previous: action.annotations };
    case 'create-probe-pod':
      return { kind: 'delete-probe-pod', ref: action.ref, node: action.node };
    case 'create-probe-daemonset':
      return { kind: 'delete-probe-daemonset', ref: action.ref, runId: action.runId };
    case 'acquire-lease':
      return { kind: 'release-lease', ref: action.ref, holder: action.holder, resourceVersion: '' };
    case 'delete-probe-pod':
    case 'delete-probe-daemonset':
    case 'renew-lease':
    case 'release-lease':
      return undefined;
  }
}
