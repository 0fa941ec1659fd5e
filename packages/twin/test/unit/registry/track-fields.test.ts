import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/apimachinery/types.js';
import { eventFromV1 } from '../../../src/registry/event-views.js';
import type { ResourceDef } from '../../../src/registry/resources.js';
import { findResource, resourceFor } from '../../../src/registry/resources.js';
import { trackFields } from '../../../src/registry/track-fields.js';

const now = '2026-01-02T03:04:05Z';

describe('the registry’s managedFields hook', () => {
  it('tracks a kind without a schema as a CRD without one: every field kept, lists atomic', () => {
    const widgets: ResourceDef = {
      ...resourceFor('configmaps'),
      group: 'example.com',
      kind: 'Widget',
    };
    const widget: KubeObject = {
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { name: 'w', namespace: 'default' },
      spec: { size: 3, ports: [{ port: 80 }] },
    };
    trackFields(widgets, undefined, widget, { manager: 'bot' }, now);
    expect(widget['spec']).toEqual({ size: 3, ports: [{ port: 80 }] });
    expect(widget.metadata.managedFields).toEqual([
      {
        manager: 'bot',
        operation: 'Update',
        apiVersion: 'example.com/v1',
        time: now,
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:spec': { '.': {}, 'f:ports': {}, 'f:size': {} } },
      },
    ]);
  });

  it('tracks a write through events.k8s.io/v1 in that shape and version, on the stored core Event', () => {
    const view = findResource('events.k8s.io/v1', 'events')!;
    const stored = eventFromV1({
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: 'e', namespace: 'default' },
      reason: 'Started',
      note: 'cutover started',
    });
    trackFields(resourceFor('events'), undefined, stored, { manager: 'bot', view }, now);
    expect(stored['message']).toBe('cutover started');
    const entry = stored.metadata.managedFields?.[0];
    expect(entry?.['apiVersion']).toBe('events.k8s.io/v1');
    expect(Object.keys(entry?.['fieldsV1'] as object)).toEqual(
      expect.arrayContaining(['f:note', 'f:reason']),
    );
    expect(Object.keys(entry?.['fieldsV1'] as object)).not.toContain('f:message');
  });
});
