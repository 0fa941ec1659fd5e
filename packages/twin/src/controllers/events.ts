// Kubernetes Events as controllers and kubelets record them (core/v1, the shape `kubectl get
// events` and `kubectl describe` read), so a rollout leaves the same trail as on a real cluster.

import type { Clock } from '../clock.js';
import { toTimestamp } from '../clock.js';
import type { Registry } from '../registry/registry.js';
import type { JsonObject, KubeObject } from '../apimachinery/types.js';
import { eventsDef } from './kube.js';
import { eventManager } from './managers.js';

export type EventType = 'Normal' | 'Warning';

export interface EventSource {
  component: string;
  host?: string;
}

export type RecordEvent = (
  subject: KubeObject,
  type: EventType,
  reason: string,
  message: string,
  source: EventSource,
) => void;

export function createEventRecorder(registry: Registry, clock: Clock): RecordEvent {
  let sequence = 0;
  return (subject, type, reason, message, source) => {
    const now = clock.now();
    sequence += 1;
    // Real names are `<object>.<unix nanoseconds in hex>`; the sequence keeps them unique.
    const suffix = (BigInt(Math.floor(now)) * 1_000_000n + BigInt(sequence)).toString(16);
    const namespace = subject.metadata.namespace ?? 'default';
    const stamp = toTimestamp(now);
    const involvedObject: JsonObject = {
      apiVersion: subject.apiVersion,
      kind: subject.kind,
      name: subject.metadata.name ?? '',
    };
    if (subject.metadata.namespace) involvedObject['namespace'] = namespace;
    involvedObject['uid'] = subject.metadata.uid ?? '';
    involvedObject['resourceVersion'] = subject.metadata.resourceVersion ?? '';
    const event: KubeObject = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: `${subject.metadata.name ?? ''}.${suffix}`, namespace },
      involvedObject,
      reason,
      message,
      type,
      source: source.host ? { component: source.component, host: source.host } : { ...source },
      firstTimestamp: stamp,
      lastTimestamp: stamp,
      count: 1,
      eventTime: null,
      reportingComponent: source.component,
      reportingInstance: source.host ?? '',
    };
    registry.create(eventsDef, event, { manager: eventManager(source.component) });
  };
}
