// events.k8s.io/v1 Events are a second view of the one stored Event type, as in the apiserver,
// which keeps core Events and converts (pkg/apis/events/v1/conversion.go): regarding is
// involvedObject, note is message, deprecatedSource/FirstTimestamp/LastTimestamp/Count are the
// core fields, reportingController is reportingComponent. Field selectors are converted too
// (AddFieldLabelConversionsForEvent in pkg/apis/events/v1).

import { SelectorParseError } from '../apimachinery/label-selector.js';
import type { JsonObject, JsonValue, KubeObject } from '../apimachinery/types.js';
import { isJsonObject } from '../apimachinery/types.js';
import type { ResourceDef } from './resources.js';
import { resourceFor } from './resources.js';

const eventsGroup = 'events.k8s.io';

/** True for a resource served as a view of another's storage (events.k8s.io/v1 Events). */
export function isEventsView(def: Pick<ResourceDef, 'group' | 'plural'>): boolean {
  return def.group === eventsGroup && def.plural === 'events';
}

/** The resource whose objects back `def`: core events for the events.k8s.io view, else itself. */
export function storageOf(def: ResourceDef): ResourceDef {
  return isEventsView(def) ? resourceFor('events') : def;
}

/** Sets `key` unless the value is what `omitempty` drops (empty string, 0, undefined). */
function put(out: JsonObject, key: string, value: JsonValue | undefined): void {
  if (value === undefined || value === '' || value === 0) return;
  out[key] = value;
}

/** A stored core/v1 Event as events.k8s.io/v1 prints it (Go field order). */
export function eventToV1(stored: KubeObject): KubeObject {
  const core = stored as unknown as JsonObject;
  const out: JsonObject = { kind: 'Event', apiVersion: `${eventsGroup}/v1` };
  out['metadata'] = core['metadata'] ?? {};
  // Non-omitempty MicroTime and metav1.Time structs print their zero value as null.
  out['eventTime'] = core['eventTime'] ?? null;
  if (isJsonObject(core['series'])) out['series'] = core['series'];
  put(out, 'reportingController', core['reportingComponent']);
  put(out, 'reportingInstance', core['reportingInstance']);
  put(out, 'action', core['action']);
  put(out, 'reason', core['reason']);
  out['regarding'] = isJsonObject(core['involvedObject']) ? core['involvedObject'] : {};
  if (isJsonObject(core['related'])) out['related'] = core['related'];
  put(out, 'note', core['message']);
  put(out, 'type', core['type']);
  out['deprecatedSource'] = isJsonObject(core['source']) ? core['source'] : {};
  out['deprecatedFirstTimestamp'] = core['firstTimestamp'] ?? null;
  out['deprecatedLastTimestamp'] = core['lastTimestamp'] ?? null;
  put(out, 'deprecatedCount', core['count']);
  return out as unknown as KubeObject;
}

/** An events.k8s.io/v1 Event as the core/v1 Event the store keeps. */
export function eventFromV1(written: KubeObject): KubeObject {
  const v1 = written as unknown as JsonObject;
  const out: JsonObject = { kind: 'Event', apiVersion: 'v1' };
  out['metadata'] = v1['metadata'] ?? {};
  out['involvedObject'] = isJsonObject(v1['regarding']) ? v1['regarding'] : {};
  put(out, 'reason', v1['reason']);
  put(out, 'message', v1['note']);
  out['source'] = isJsonObject(v1['deprecatedSource']) ? v1['deprecatedSource'] : {};
  out['firstTimestamp'] = v1['deprecatedFirstTimestamp'] ?? null;
  out['lastTimestamp'] = v1['deprecatedLastTimestamp'] ?? null;
  put(out, 'count', v1['deprecatedCount']);
  put(out, 'type', v1['type']);
  out['eventTime'] = v1['eventTime'] ?? null;
  if (isJsonObject(v1['series'])) out['series'] = v1['series'];
  put(out, 'action', v1['action']);
  if (isJsonObject(v1['related'])) out['related'] = v1['related'];
  out['reportingComponent'] = v1['reportingController'] ?? '';
  out['reportingInstance'] = v1['reportingInstance'] ?? '';
  return out as unknown as KubeObject;
}

/** What a client of `def` sees of a stored object. */
export function toView(def: ResourceDef, stored: KubeObject): KubeObject {
  return isEventsView(def) ? eventToV1(stored) : stored;
}

/** What the store keeps of an object written through `def`. */
export function fromView(def: ResourceDef, obj: KubeObject): KubeObject {
  return isEventsView(def) ? eventFromV1(obj) : obj;
}

/** events.k8s.io/v1 field labels and the core labels they select on. */
const v1FieldLabels: Readonly<Record<string, string>> = {
  reason: 'reason',
  'regarding.kind': 'involvedObject.kind',
  'regarding.namespace': 'involvedObject.namespace',
  'regarding.name': 'involvedObject.name',
  'regarding.uid': 'involvedObject.uid',
  'regarding.apiVersion': 'involvedObject.apiVersion',
  'regarding.resourceVersion': 'involvedObject.resourceVersion',
  'regarding.fieldPath': 'involvedObject.fieldPath',
  reportingController: 'reportingComponent',
  source: 'source',
  type: 'type',
  'metadata.namespace': 'metadata.namespace',
  'metadata.name': 'metadata.name',
};

/**
 * Rewrites a fieldSelector sent to `def` into the stored kind's labels, as the scheme's field
 * label conversion does; a label the view does not define is "not supported" by name.
 */
export function storedFieldSelector(def: ResourceDef, input: string): string {
  if (!isEventsView(def) || input.trim() === '') return input;
  return input
    .split(',')
    .map((part) => {
      const m = /^(\s*)([^!=\s]+)(.*)$/s.exec(part);
      if (!m) return part;
      const label = m[2] ?? '';
      const stored = v1FieldLabels[label];
      if (stored === undefined) throw new SelectorParseError(`field label not supported: ${label}`);
      return `${m[1] ?? ''}${stored}${m[3] ?? ''}`;
    })
    .join(',');
}
