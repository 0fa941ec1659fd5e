import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/apimachinery/types.js';
import { eventFromV1, eventToV1, storedFieldSelector } from '../../../src/registry/event-views.js';
import { findResource } from '../../../src/registry/resources.js';

const core = {
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name: 'n1.1', namespace: 'default' },
  involvedObject: { kind: 'Node', name: 'n1', uid: 'u1', apiVersion: 'v1' },
  reason: 'NodeNotReady',
  message: 'Node n1 status is now: NodeNotReady',
  source: { component: 'node-controller' },
  firstTimestamp: '2025-08-20T10:00:00Z',
  lastTimestamp: '2025-08-20T10:00:05Z',
  count: 2,
  type: 'Normal',
  eventTime: null,
  reportingComponent: 'node-controller',
  reportingInstance: '',
} as unknown as KubeObject;

describe('events.k8s.io/v1 as a view of core Events', () => {
  it('maps the fields as pkg/apis/events/v1/conversion.go does', () => {
    expect(eventToV1(core)).toEqual({
      kind: 'Event',
      apiVersion: 'events.k8s.io/v1',
      metadata: { name: 'n1.1', namespace: 'default' },
      eventTime: null,
      reportingController: 'node-controller',
      reason: 'NodeNotReady',
      regarding: { kind: 'Node', name: 'n1', uid: 'u1', apiVersion: 'v1' },
      note: 'Node n1 status is now: NodeNotReady',
      type: 'Normal',
      deprecatedSource: { component: 'node-controller' },
      deprecatedFirstTimestamp: '2025-08-20T10:00:00Z',
      deprecatedLastTimestamp: '2025-08-20T10:00:05Z',
      deprecatedCount: 2,
    });
    expect(eventFromV1(eventToV1(core))).toEqual(core);
  });

  it('converts field selectors and refuses the core spellings', () => {
    const view = findResource('events.k8s.io/v1', 'events')!;
    expect(storedFieldSelector(view, 'regarding.kind=Node,reportingController=kubelet')).toBe(
      'involvedObject.kind=Node,reportingComponent=kubelet',
    );
    expect(() => storedFieldSelector(view, 'involvedObject.kind=Node')).toThrow(
      'field label not supported: involvedObject.kind',
    );
    const coreEvents = findResource('v1', 'events')!;
    expect(storedFieldSelector(coreEvents, 'involvedObject.kind=Node')).toBe(
      'involvedObject.kind=Node',
    );
  });
});
