/**
 * The plan as people review it: one unified diff per shared object, current YAML against planned.
 * A canary not yet created is shown against what it is cloned from, so the diff says exactly how
 * the copy differs from the kube-proxy that runs today.
 */
import { createTwoFilesPatch } from 'diff';
import { describe } from './action-describe.js';
import type {
  ClusterAction,
  ConfigMapContent,
  NodeSelector,
  ObjectRef,
  UpdateStrategy,
} from './actions.js';
import type { CanaryPlan } from './canary-plan.js';
import type { KubeDaemonSet } from './kube.js';
import { isUnchanged } from './plan-unchanged.js';
import { manifestYaml } from './safe-yaml.js';

export interface PlanDiff {
  title: string;
  /** A unified diff; empty when the object is already as planned. */
  diff: string;
}

const at = (ref: ObjectRef): string => `${ref.namespace}/${ref.name}`;

function configMapYaml(ref: ObjectRef, content: ConfigMapContent): string {
  const { data, labels, annotations } = content;
  return manifestYaml({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: ref.name, namespace: ref.namespace, labels, annotations },
    data,
  });
}

function daemonSetYaml(ds: KubeDaemonSet): string {
  return manifestYaml({ apiVersion: 'apps/v1', kind: 'DaemonSet', ...ds });
}

const strategyYaml = (s: UpdateStrategy): string => manifestYaml({ spec: { updateStrategy: s } });

function affinityYaml(required: NodeSelector | null): string {
  const nodeAffinity =
    required === null ? {} : { requiredDuringSchedulingIgnoredDuringExecution: required };
  return manifestYaml({ spec: { template: { spec: { affinity: { nodeAffinity } } } } });
}

function unified(from: string, to: string, before: string, after: string): string {
  if (before === after) return '';
  // The first line is a row of "=" that says nothing; the ---/+++ lines name both sides.
  return createTwoFilesPatch(from, to, before, after, undefined, undefined, { context: 3 }).replace(
    /^=+\n/,
    '',
  );
}

function diffOf(action: ClusterAction, plan: CanaryPlan): PlanDiff | undefined {
  // Live objects carry API defaults the plan does not write: unchanged is judged field by field,
  // and an unchanged object shows no diff rather than the defaults.
  if (isUnchanged(action)) return { title: `${describe(action)}: no change`, diff: '' };
  const title = describe(action);
  switch (action.kind) {
    case 'set-update-strategy':
      return {
        title,
        diff: unified(
          `${at(action.ref)} (current)`,
          `${at(action.ref)} (planned)`,
          strategyYaml(action.previous),
          strategyYaml(action.strategy),
        ),
      };
    case 'set-node-affinity':
      return {
        title,
        diff: unified(
          `${at(action.ref)} (current)`,
          `${at(action.ref)} (planned)`,
          affinityYaml(action.previous),
          affinityYaml(action.required),
        ),
      };
    case 'ensure-configmap': {
      const source = plan.from.configMap;
      if (action.previous === null && source !== undefined) {
        const sourceRef = { namespace: plan.namespace, name: source.name };
        return {
          title: `${title}, shown against ConfigMap ${at(sourceRef)}`,
          diff: unified(
            `${at(sourceRef)} (current)`,
            `${at(action.ref)} (planned)`,
            configMapYaml(sourceRef, source.content),
            configMapYaml(action.ref, action.desired),
          ),
        };
      }
      const { resourceVersion: _rv, ...previous } = action.previous ?? {
        data: {},
        labels: {},
        annotations: {},
        resourceVersion: '',
      };
      return {
        title,
        diff: unified(
          `${at(action.ref)} (current)`,
          `${at(action.ref)} (planned)`,
          configMapYaml(action.ref, previous),
          configMapYaml(action.ref, action.desired),
        ),
      };
    }
    case 'ensure-daemonset': {
      const from = action.previous?.manifest ?? plan.from.daemonSet;
      const fromRef = {
        namespace: from.metadata.namespace ?? plan.namespace,
        name: from.metadata.name,
      };
      return {
        title:
          action.previous === null ? `${title}, shown against DaemonSet ${at(fromRef)}` : title,
        diff: unified(
          `${at(fromRef)} (current)`,
          `${at(action.ref)} (planned)`,
          daemonSetYaml(from),
          daemonSetYaml(action.desired),
        ),
      };
    }
    default:
      return undefined;
  }
}

/** One diff per shared action, in the plan's order; node label changes are one-liners (describe). */
export function planDiffs(plan: CanaryPlan): PlanDiff[] {
  return plan.shared.flatMap((action) => {
    const d = diffOf(action, plan);
    return d === undefined ? [] : [d];
  });
}
