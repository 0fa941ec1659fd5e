// Events through the real @kubernetes/client-node (EventsV1Api, and a Watch on events.k8s.io/v1)
// and the real kubectl (`get events`, `events`): the events.k8s.io/v1 view of core Events, a
// repeated event aggregated into one whose count (or series) grows, and the node lifecycle
// controller's NodeNotReady when a kubelet stops reporting.
// Facts used:
//   - pkg/apis/events/v1/conversion.go: regarding/note/deprecatedCount/reportingController are
//     the core involvedObject/message/count/reportingComponent; series is carried over.
//   - staging/src/k8s.io/client-go/tools/record/event.go (generateEvent, makeEvent): a recorder
//     sets reportingController and reportingInstance from its source; events_cache.go
//     (EventCorrelator): a repeat bumps count on the first Event (a PATCH, so watchers see
//     MODIFIED on the same name).
//   - pkg/printers/internalversion/printers.go (printEvent): with a series, LAST SEEN and COUNT
//     come from it.
//   - pkg/controller/nodelifecycle/node_lifecycle_controller.go: after the grace period without
//     a Lease renewal the node controller records `Node <name> status is now: NodeNotReady`
//     (Normal, RecordNodeStatusChange) and `Node is not ready` (Warning) on the node's pods
//     (MarkPodsNotReady).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EventsV1Event } from '@kubernetes/client-node';
import {
  CoreV1Api,
  EventsV1Api,
  KubeConfig,
  PatchStrategy,
  V1MicroTime,
  Watch,
  setHeaderOptions,
} from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManualClock, Twin } from '../../../src/index.js';
import { createManualClock, startTwin } from '../../../src/index.js';
import type { Kubectl } from '../../../src/testing/kubectl.js';
import { kubectlWith, rows } from '../../../src/testing/kubectl.js';
import { eventually } from '../../../src/testing/wait.js';

let twin: Twin;
let clock: ManualClock;
let dir: string;
let kubectl: Kubectl;
let core: CoreV1Api;
let eventsV1: EventsV1Api;
let stopWatch: AbortController | undefined;
/** Everything the events.k8s.io/v1 watch over all namespaces delivered, in order. */
const seen: { type: string; event: EventsV1Event }[] = [];
let watchEnded: unknown = 'open';

async function hostFaults(node: string, faults: string[]): Promise<void> {
  const res = await fetch(`${twin.url}/twin/hosts/${node}/faults`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(faults),
  });
  expect(res.status).toBe(200);
}

function watched(
  what: string,
  match: (e: { type: string; event: EventsV1Event }) => boolean,
  count = 1,
): Promise<{ type: string; event: EventsV1Event }[]> {
  return eventually(
    what,
    () => {
      const hits = seen.filter(match);
      return hits.length >= count ? hits : undefined;
    },
    15_000,
  );
}

beforeAll(async () => {
  clock = createManualClock(Date.parse('2026-03-04T05:00:00Z'));
  twin = await startTwin({ scenario: 'kubeadm-ipvs', clock });
  dir = await mkdtemp(join(tmpdir(), 'twin-events-wire-'));
  await twin.writeKubeconfig(join(dir, 'kubeconfig'));
  kubectl = kubectlWith(join(dir, 'kubeconfig'), dir, { timeoutMs: 20_000 });
  const kc = new KubeConfig();
  kc.loadFromString(twin.kubeconfigYaml());
  core = kc.makeApiClient(CoreV1Api);
  eventsV1 = kc.makeApiClient(EventsV1Api);
  const list = await eventsV1.listEventForAllNamespaces();
  stopWatch = await new Watch(kc).watch(
    '/apis/events.k8s.io/v1/events',
    { resourceVersion: list.metadata?.resourceVersion },
    (type, event: EventsV1Event) => {
      seen.push({ type, event });
    },
    (err: unknown) => {
      watchEnded = err;
    },
  );
});

afterAll(async () => {
  stopWatch?.abort();
  await twin.close();
  await rm(dir, { recursive: true, force: true });
});

describe('events.k8s.io/v1 through client-node', () => {
  it('serves a core Event as an events.k8s.io/v1 Event: list, field selector and watch', async () => {
    await core.createNamespacedEvent({
      namespace: 'default',
      body: {
        metadata: { name: 'probe.1' },
        involvedObject: { kind: 'ConfigMap', namespace: 'default', name: 'probe' },
        reason: 'Probed',
        message: 'probe ran',
        type: 'Normal',
        count: 1,
        source: { component: 'proxy-migrate', host: 'laptop' },
        firstTimestamp: new Date('2026-03-04T05:00:00Z'),
        lastTimestamp: new Date('2026-03-04T05:00:00Z'),
        reportingComponent: 'proxy-migrate',
        reportingInstance: 'laptop',
      },
    });
    const list = await eventsV1.listNamespacedEvent({
      namespace: 'default',
      fieldSelector: 'regarding.name=probe,reason=Probed',
    });
    expect(list.apiVersion).toBe('events.k8s.io/v1');
    expect(list.items).toHaveLength(1);
    expect(list.items[0]).toMatchObject({
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: 'probe.1', namespace: 'default' },
      regarding: { kind: 'ConfigMap', namespace: 'default', name: 'probe' },
      note: 'probe ran',
      reason: 'Probed',
      type: 'Normal',
      reportingController: 'proxy-migrate',
      reportingInstance: 'laptop',
      deprecatedSource: { component: 'proxy-migrate', host: 'laptop' },
      deprecatedCount: 1,
    });
    const [added] = await watched(
      'the ADDED probe event',
      (e) => e.event.metadata?.name === 'probe.1',
    );
    expect(added?.type).toBe('ADDED');
    expect(added?.event.apiVersion).toBe('events.k8s.io/v1');
    expect(added?.event.note).toBe('probe ran');
  });

  it('aggregates a repeated NodeNotReady into one Event whose count grows (watch: ADDED, then MODIFIED)', async () => {
    for (let i = 0; i < 3; i += 1) {
      await hostFaults('blue-2', ['not-ready']);
      clock.advance(2_000);
      await hostFaults('blue-2', []);
      clock.advance(2_000);
    }
    const isNotReady = (e: { event: EventsV1Event }) =>
      e.event.reason === 'NodeNotReady' && e.event.regarding?.name === 'blue-2';
    const hits = await watched('three NodeNotReady deliveries for blue-2', isNotReady, 3);
    expect(hits.map((h) => [h.type, h.event.deprecatedCount])).toEqual([
      ['ADDED', 1],
      ['MODIFIED', 2],
      ['MODIFIED', 3],
    ]);
    expect(new Set(hits.map((h) => h.event.metadata?.name)).size).toBe(1);
    // The kubelet's recorder: its source names the component and the node.
    expect(hits[0]?.event).toMatchObject({
      type: 'Normal',
      note: 'Node blue-2 status is now: NodeNotReady',
      reportingController: 'kubelet',
      reportingInstance: 'blue-2',
      deprecatedSource: { component: 'kubelet', host: 'blue-2' },
    });
    const list = await eventsV1.listNamespacedEvent({
      namespace: 'default',
      fieldSelector: 'regarding.name=blue-2,reason=NodeNotReady',
    });
    expect(list.items.map((e) => e.deprecatedCount)).toEqual([3]);
    const table = await kubectl(
      'get',
      'events',
      '--field-selector',
      'involvedObject.name=blue-2,reason=NodeNotReady',
      '-o',
      'custom-columns=COUNT:.count,REASON:.reason,OBJECT:.involvedObject.name',
    );
    expect(rows(table.stdout)).toEqual([
      ['COUNT', 'REASON', 'OBJECT'],
      ['3', 'NodeNotReady', 'blue-2'],
    ]);
  });

  it('keeps an events.k8s.io/v1 series as a client writes it; kubectl counts from the series', async () => {
    const at = (iso: string) => new V1MicroTime(iso);
    await eventsV1.createNamespacedEvent({
      namespace: 'default',
      body: {
        metadata: { name: 'lock.1' },
        eventTime: at('2026-03-04T05:00:00.000000Z'),
        reportingController: 'proxy-migrate.io/lock',
        reportingInstance: 'proxy-migrate-1',
        action: 'Renew',
        reason: 'LockHeld',
        regarding: { kind: 'Lease', namespace: 'default', name: 'proxy-migrate-lock' },
        note: 'lock renewed',
        type: 'Normal',
        series: { count: 2, lastObservedTime: at('2026-03-04T05:00:10.000000Z') },
      },
    });
    await eventsV1.patchNamespacedEvent(
      {
        name: 'lock.1',
        namespace: 'default',
        body: { series: { count: 3, lastObservedTime: '2026-03-04T05:00:20.000000Z' } },
      },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    const hits = await watched(
      'the lock event and its series update',
      (e) => e.event.metadata?.name === 'lock.1',
      2,
    );
    expect(hits.map((h) => [h.type, h.event.series?.count])).toEqual([
      ['ADDED', 2],
      ['MODIFIED', 3],
    ]);
    const coreEvent = await core.readNamespacedEvent({ name: 'lock.1', namespace: 'default' });
    expect(coreEvent.series?.count).toBe(3);
    expect(coreEvent.involvedObject.name).toBe('proxy-migrate-lock');
    expect(coreEvent.reportingComponent).toBe('proxy-migrate.io/lock');
    const wide = rows(
      (
        await kubectl(
          'get',
          'events',
          '--field-selector',
          'reason=LockHeld',
          '-o',
          'custom-columns=NAME:.metadata.name,SERIES:.series.count,COUNT:.count',
        )
      ).stdout,
    );
    expect(wide).toEqual([
      ['NAME', 'SERIES', 'COUNT'],
      ['lock.1', '3', '<none>'],
    ]);
    // The server-rendered table takes COUNT from the series (printEvent). The SUBOBJECT cell is
    // empty, so match the line's end (COUNT, NAME) rather than split cells.
    const wideTable = await kubectl(
      'get',
      'events',
      '--field-selector',
      'reason=LockHeld',
      '-o',
      'wide',
    );
    const lines = wideTable.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/\sCOUNT\s+NAME$/);
    expect(lines.slice(1)).toHaveLength(1);
    expect(lines[1]).toMatch(
      /proxy-migrate\.io\/lock, proxy-migrate-1\s+lock renewed\s+\S+\s+3\s+lock\.1$/,
    );
  });
});

describe('the node controller’s NodeNotReady when a kubelet stops', () => {
  it('records NodeNotReady for the node and Node is not ready for its pods, seen by watch and kubectl', async () => {
    await hostFaults('green-2', ['kubelet-down']);
    clock.advance(60_000);
    const [nodeEvent] = await watched(
      'the node controller’s NodeNotReady for green-2',
      (e) =>
        e.event.reason === 'NodeNotReady' &&
        e.event.regarding?.kind === 'Node' &&
        e.event.regarding.name === 'green-2' &&
        e.event.reportingController === 'node-controller',
    );
    expect(nodeEvent).toMatchObject({
      type: 'ADDED',
      event: {
        type: 'Normal',
        note: 'Node green-2 status is now: NodeNotReady',
        metadata: { namespace: 'default' },
        deprecatedSource: { component: 'node-controller' },
      },
    });
    const podEvents = await watched(
      'Node is not ready on a green-2 pod',
      (e) =>
        e.event.reason === 'NodeNotReady' &&
        e.event.regarding?.kind === 'Pod' &&
        e.event.reportingController === 'node-controller',
    );
    expect(podEvents[0]?.event).toMatchObject({
      type: 'Warning',
      note: 'Node is not ready',
      metadata: { namespace: 'kube-system' },
    });
    const podName = podEvents[0]?.event.regarding?.name ?? '';
    const pod = await core.readNamespacedPod({ name: podName, namespace: 'kube-system' });
    expect(pod.spec?.nodeName).toBe('green-2');

    const forNode = await kubectl('events', '--for', 'node/green-2');
    expect(forNode.code).toBe(0);
    const lines = forNode.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^LAST SEEN\s+TYPE\s+REASON\s+OBJECT\s+MESSAGE$/);
    expect(
      lines.some((l) =>
        /Normal\s+NodeNotReady\s+Node\/green-2\s+Node green-2 status is now: NodeNotReady$/.test(l),
      ),
    ).toBe(true);

    const warnings = await kubectl('events', '-n', 'kube-system', '--types=Warning');
    expect(warnings.code).toBe(0);
    expect(warnings.stdout).toMatch(
      new RegExp(`Warning\\s+NodeNotReady\\s+Pod/${podName}\\s+Node is not ready`),
    );
    expect(watchEnded).toBe('open');
  });
});
