// Leases and Events as the product will use them: a per-cluster lock through client-node's
// CoordinationV1Api, the kubelets' kube-node-lease heartbeats, a node whose kubelet stops, and the
// Events that tell the story, read with the real kubectl (core and events.k8s.io/v1).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { V1Lease } from '@kubernetes/client-node';
import {
  ApiException,
  CoordinationV1Api,
  EventsV1Api,
  KubeConfig,
  V1MicroTime,
} from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManualClock, Twin } from '../../src/index.js';
import { createManualClock, startTwin } from '../../src/index.js';
import type { Kubectl } from '../../src/testing/kubectl.js';
import { kubectlWith, rows } from '../../src/testing/kubectl.js';

let twin: Twin;
let clock: ManualClock;
let dir: string;
let kubectl: Kubectl;
let coordination: CoordinationV1Api;
let eventsV1: EventsV1Api;

async function apiError(promise: Promise<unknown>): Promise<ApiException<string>> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiException) return error as ApiException<string>;
    throw error;
  }
  throw new Error('expected an ApiException');
}

async function hostFaults(node: string, faults: string[]): Promise<void> {
  const res = await fetch(`${twin.url}/twin/hosts/${node}/faults`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(faults),
  });
  expect(res.status).toBe(200);
}

const lock = (renewTime: Date, resourceVersion?: string): V1Lease => ({
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: {
    name: 'proxy-migrate-lock',
    namespace: 'kube-system',
    ...(resourceVersion === undefined ? {} : { resourceVersion }),
  },
  spec: { holderIdentity: 'proxy-migrate-bot', leaseDurationSeconds: 30, renewTime },
});

beforeAll(async () => {
  // A manual clock: the 50 s node-monitor grace period passes in one step, with no waiting.
  clock = createManualClock(Date.parse('2026-01-02T03:00:00Z'));
  twin = await startTwin({ scenario: 'kubeadm-ipvs', clock });
  dir = await mkdtemp(join(tmpdir(), 'twin-leases-'));
  await twin.writeKubeconfig(join(dir, 'kubeconfig'));
  kubectl = kubectlWith(join(dir, 'kubeconfig'), dir, { timeoutMs: 20_000 });
  const kc = new KubeConfig();
  kc.loadFromString(twin.kubeconfigYaml());
  coordination = kc.makeApiClient(CoordinationV1Api);
  eventsV1 = kc.makeApiClient(EventsV1Api);
});

afterAll(async () => {
  await twin.close();
  await rm(dir, { recursive: true, force: true });
});

describe('a Lease lock through client-node', () => {
  it('refuses a toISOString() renewTime with the apiserver’s decoding error', async () => {
    const error = await apiError(
      coordination.createNamespacedLease({
        namespace: 'kube-system',
        body: lock(new Date('2026-01-02T03:04:05.678Z')),
      }),
    );
    expect(error.code).toBe(400);
    expect(JSON.parse(error.body)).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'Lease in version "v1" cannot be handled as a Lease: parsing time "2026-01-02T03:04:05.678Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse ".678Z" as ".000000"',
      reason: 'BadRequest',
      code: 400,
    });
  });

  it('creates it with a six-digit V1MicroTime (201) and reads it back', async () => {
    const created = await coordination.createNamespacedLeaseWithHttpInfo({
      namespace: 'kube-system',
      body: lock(new V1MicroTime('2026-01-02T03:04:05.678Z')),
    });
    expect(created.httpStatusCode).toBe(201);
    const read = await coordination.readNamespacedLease({
      name: 'proxy-migrate-lock',
      namespace: 'kube-system',
    });
    expect(read.spec?.holderIdentity).toBe('proxy-migrate-bot');
    expect(String(read.spec?.renewTime as unknown)).toBe('2026-01-02T03:04:05.678000Z');
  });

  it('refuses a replace without resourceVersion (422), accepts one with it', async () => {
    const error = await apiError(
      coordination.replaceNamespacedLease({
        name: 'proxy-migrate-lock',
        namespace: 'kube-system',
        body: lock(new V1MicroTime('2026-01-02T03:04:15.000Z')),
      }),
    );
    expect(error.code).toBe(422);
    expect(JSON.parse(error.body)).toMatchObject({
      reason: 'Invalid',
      message:
        'leases.coordination.k8s.io "proxy-migrate-lock" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update',
      details: { name: 'proxy-migrate-lock', group: 'coordination.k8s.io', kind: 'leases' },
    });
    const current = await coordination.readNamespacedLease({
      name: 'proxy-migrate-lock',
      namespace: 'kube-system',
    });
    const renewed = await coordination.replaceNamespacedLeaseWithHttpInfo({
      name: 'proxy-migrate-lock',
      namespace: 'kube-system',
      body: lock(new V1MicroTime('2026-01-02T03:04:15.000Z'), current.metadata?.resourceVersion),
    });
    expect(renewed.httpStatusCode).toBe(200);
  });

  it('creates a missing Lease on replace (201)', async () => {
    const body = { ...lock(new V1MicroTime('2026-01-02T03:04:05.000Z')) };
    body.metadata = { name: 'other-lock', namespace: 'kube-system' };
    const res = await coordination.replaceNamespacedLeaseWithHttpInfo({
      name: 'other-lock',
      namespace: 'kube-system',
      body,
    });
    expect(res.httpStatusCode).toBe(201);
  });

  it('renews with server-side apply and merge patches, which need no resourceVersion', async () => {
    const apply = JSON.stringify({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'proxy-migrate-lock', namespace: 'kube-system' },
      spec: { renewTime: '2026-01-02T03:04:25.000000Z' },
    });
    const base = `${twin.url}/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/proxy-migrate-lock`;
    const applied = await fetch(`${base}?fieldManager=bot&force=true`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/apply-patch+yaml' },
      body: apply,
    });
    expect(applied.status).toBe(200);
    const merged = await fetch(base, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/merge-patch+json' },
      body: JSON.stringify({ spec: { renewTime: '2026-01-02T03:04:35.5Z' } }),
    });
    expect(merged.status).toBe(400);
    expect(((await merged.json()) as { message: string }).message).toBe(
      'Lease in version "v1" cannot be handled as a Lease: parsing time "2026-01-02T03:04:35.5Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse ".5Z" as ".000000"',
    );
  });

  it('lists Leases with the HOLDER column', async () => {
    const table = rows((await kubectl('get', 'leases', '-n', 'kube-system')).stdout);
    expect(table[0]).toEqual(['NAME', 'HOLDER', 'AGE']);
    expect(table).toContainEqual(['proxy-migrate-lock', 'proxy-migrate-bot', '0s']);
  });
});

describe('node Leases and a kubelet that stops', () => {
  it('keeps one renewed Lease per node in kube-node-lease', async () => {
    const table = rows((await kubectl('get', 'leases', '-n', 'kube-node-lease')).stdout);
    expect(table.slice(1).map((r) => [r[0], r[1]])).toEqual(
      ['blue-1', 'blue-2', 'cp-1', 'green-1', 'green-2', 'legacy-1'].map((n) => [n, n]),
    );
    const before = await coordination.readNamespacedLease({
      name: 'blue-1',
      namespace: 'kube-node-lease',
    });
    clock.advance(11_000);
    const after = await coordination.readNamespacedLease({
      name: 'blue-1',
      namespace: 'kube-node-lease',
    });
    expect(after.metadata?.resourceVersion).not.toBe(before.metadata?.resourceVersion);
    expect(after.spec?.leaseDurationSeconds).toBe(40);
  });

  it('turns the node NotReady (Unknown) and unreachable after the grace period', async () => {
    await hostFaults('green-2', ['kubelet-down']);
    clock.advance(45_000);
    expect(rows((await kubectl('get', 'node', 'green-2')).stdout)[1]?.[1]).toBe('Ready');
    clock.advance(15_000);
    expect(rows((await kubectl('get', 'node', 'green-2')).stdout)[1]?.[1]).toBe('NotReady');
    const ready = await kubectl(
      'get',
      'node',
      'green-2',
      '-o',
      'jsonpath={.status.conditions[?(@.type=="Ready")].status} {.status.conditions[?(@.type=="Ready")].message} {.spec.taints[*].key}',
    );
    expect(ready.stdout).toBe(
      'Unknown Kubelet stopped posting node status. node.kubernetes.io/unreachable node.kubernetes.io/unreachable',
    );
    const events = await kubectl('events', '--for', 'node/green-2');
    expect(events.stdout).toContain(
      'Normal   NodeNotReady   Node/green-2   Node green-2 status is now: NodeNotReady',
    );
  });

  it('shows the controller’s event in both Event APIs', async () => {
    const table = rows(
      (
        await kubectl(
          'get',
          'events',
          '--field-selector',
          'involvedObject.name=green-2,reason=NodeNotReady',
          '-o',
          'wide',
        )
      ).stdout,
    );
    expect(table[0]).toContain('COUNT');
    expect(table[1]).toContain('node-controller');
    const list = await eventsV1.listNamespacedEvent({
      namespace: 'default',
      fieldSelector: 'regarding.name=green-2,reason=NodeNotReady',
    });
    expect(
      list.items.map((e) => [e.reportingController, e.note, e.regarding?.kind, e.deprecatedCount]),
    ).toEqual([['node-controller', 'Node green-2 status is now: NodeNotReady', 'Node', 1]]);
  });

  it('recovers when the kubelet comes back', async () => {
    await hostFaults('green-2', []);
    clock.advance(1_000);
    expect(rows((await kubectl('get', 'node', 'green-2')).stdout)[1]?.[1]).toBe('Ready');
    clock.advance(120_000);
    expect(rows((await kubectl('get', 'node', 'green-2')).stdout)[1]?.[1]).toBe('Ready');
  });
});

describe('repeated Events', () => {
  it('counts a repeated NodeNotReady in one Event, as the EventRecorder does', async () => {
    for (let i = 0; i < 2; i += 1) {
      await hostFaults('blue-2', ['not-ready']);
      clock.advance(2_000);
      await hostFaults('blue-2', []);
      clock.advance(2_000);
    }
    const out = (
      await kubectl('get', 'events', '--field-selector', 'involvedObject.name=blue-2', '-o', 'wide')
    ).stdout;
    const notReady = out.split('\n').filter((line) => line.includes('NodeNotReady'));
    // One Event, COUNT 2 (the SUBOBJECT cell is empty, so match the line, not split cells).
    expect(notReady).toHaveLength(1);
    expect(notReady[0]).toMatch(
      /kubelet, blue-2\s+Node blue-2 status is now: NodeNotReady\s+\S+\s+2\s+blue-2\.[0-9a-f]+$/,
    );
    const v1 = JSON.parse(
      (
        await kubectl(
          'get',
          'events.v1.events.k8s.io',
          '--field-selector',
          'regarding.name=blue-2,reason=NodeNotReady',
          '-o',
          'json',
        )
      ).stdout,
    ) as { items: { deprecatedCount: number; note: string }[] };
    expect(v1.items.map((e) => e.deprecatedCount)).toEqual([2]);
  });
});
