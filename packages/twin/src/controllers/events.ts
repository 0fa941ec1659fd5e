// Kubernetes Events as controllers and kubelets record them through client-go's EventRecorder:
// core/v1 shape (what `kubectl get events` and `kubectl describe` read), correlated as the
// recorder's EventCorrelator does, so a repeat bumps `count` and `lastTimestamp` of the first
// Event (a PATCH in client-go) instead of creating another (tools/record/event.go, recordToSink).

import type { Clock } from '../clock.js';
import { toTimestamp } from '../clock.js';
import type { Registry } from '../registry/registry.js';
import type { JsonObject, KubeObject } from '../apimachinery/types.js';
import { ApiError } from '../apimachinery/errors.js';
import type { CoreEvent } from './event-correlator.js';
import { EventCorrelator } from './event-correlator.js';
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

/**
 * ObjectReference of the subject, as ref.GetReference fills it; its fields are all omitempty, so
 * a hand-made reference (a kubelet's nodeRef has no apiVersion) prints only what it has.
 */
function referenceTo(subject: KubeObject): JsonObject {
  const ref: JsonObject = {};
  const fields: [string, string | undefined][] = [
    ['kind', subject.kind],
    ['namespace', subject.metadata.namespace],
    ['name', subject.metadata.name],
    ['uid', subject.metadata.uid],
    ['apiVersion', subject.apiVersion],
    ['resourceVersion', subject.metadata.resourceVersion],
  ];
  for (const [key, value] of fields) if (value) ref[key] = value;
  return ref;
}

/** The stored Event in core/v1's field order, with the fields Go always prints. */
function wireEvent(e: CoreEvent): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: e.metadata,
    involvedObject: e.involvedObject,
    reason: e.reason,
    message: e.message,
    source: e.source,
    firstTimestamp: e.firstTimestamp,
    lastTimestamp: e.lastTimestamp,
    count: e.count,
    type: e.type,
    eventTime: null,
    reportingComponent: e['reportingComponent'] ?? '',
    reportingInstance: e['reportingInstance'] ?? '',
  };
}

export function createEventRecorder(registry: Registry, clock: Clock): RecordEvent {
  let sequence = 0;
  // Real names are `<object>.<unix nanoseconds in hex>`; the sequence keeps them unique when
  // the simulated clock has not moved between two events.
  const name = (object: string, ms: number): string => {
    sequence += 1;
    return `${object}.${(BigInt(Math.floor(ms)) * 1_000_000n + BigInt(sequence)).toString(16)}`;
  };
  const correlator = new EventCorrelator(toTimestamp, name);

  function write(e: CoreEvent, patch: boolean, manager: string): KubeObject {
    const { namespace, name: eventName } = e.metadata;
    const existing = patch ? registry.store.get(eventsDef, namespace, eventName) : undefined;
    // The correlator's strategic-merge patch carries count, lastTimestamp and message only.
    if (existing) {
      const next = {
        ...existing,
        count: e.count,
        lastTimestamp: e.lastTimestamp,
        message: e.message,
      };
      return registry.update(eventsDef, next, undefined, { manager });
    }
    // A patch of an Event that is gone becomes a create (util.IsKeyNotFoundError in recordEvent).
    return registry.create(eventsDef, wireEvent(e), { manager });
  }

  return (subject, type, reason, message, source) => {
    const now = clock.now();
    const stamp = toTimestamp(now);
    const event: CoreEvent = {
      metadata: {
        name: name(subject.metadata.name ?? '', now),
        namespace: subject.metadata.namespace || 'default',
      },
      involvedObject: referenceTo(subject),
      reason,
      message,
      source: source.host ? { component: source.component, host: source.host } : { ...source },
      firstTimestamp: stamp,
      lastTimestamp: stamp,
      count: 1,
      type,
      reportingComponent: source.component,
      reportingInstance: source.host ?? '',
    };
    const result = correlator.correlate(event, now);
    if (result.skip) return;
    let stored: KubeObject;
    try {
      stored = write(result.event, result.patch, eventManager(source.component));
    } catch (error) {
      // AlreadyExists and other rejections are dropped (recordEvent: "will not retry").
      if (error instanceof ApiError) return;
      throw error;
    }
    correlator.stored({
      ...(stored as unknown as CoreEvent),
      metadata: {
        ...stored.metadata,
        name: stored.metadata.name ?? '',
        namespace: stored.metadata.namespace ?? '',
      },
    });
  };
}
