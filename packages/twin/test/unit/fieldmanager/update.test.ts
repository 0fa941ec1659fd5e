import { describe, expect, it } from 'vitest';
import type { JsonObject, KubeObject } from '../../../src/apimachinery/types.js';
import { updateManagedFields } from '../../../src/fieldmanager/field-manager.js';
import { fromFieldsV1, toFieldsV1 } from '../../../src/fieldmanager/fields-v1.js';
import { kindContext } from '../../../src/fieldmanager/kind-context.js';

const now = '2025-04-22T02:11:42Z';

// A DaemonSet as a Go client created it on a real apiserver, defaults included, and the
// managedFields entry that apiserver recorded (a published api-server response, April 2025).
const createdDs = (): KubeObject => ({
  kind: 'DaemonSet',
  apiVersion: 'apps/v1',
  metadata: {
    name: 'cdk-backdoor-daemonset',
    namespace: 'kube-system',
    labels: { 'k8s-app': 'kube-proxy' },
    annotations: { 'deprecated.daemonset.template.generation': '1' },
  },
  spec: {
    selector: { matchLabels: { 'k8s-app': 'kube-proxy' } },
    template: {
      metadata: { labels: { 'k8s-app': 'kube-proxy' } },
      spec: {
        volumes: [{ name: 'host-volume', hostPath: { path: '/', type: '' } }],
        containers: [
          {
            name: 'cdk-backdoor-pod',
            image: 'ubuntu',
            args: ['/bin/sh', '-c', 'touch /tmp/awesome_poc ; sleep 10000'],
            resources: {},
            volumeMounts: [{ name: 'host-volume', mountPath: '/host-root' }],
            terminationMessagePath: '/dev/termination-log',
            terminationMessagePolicy: 'File',
            imagePullPolicy: 'IfNotPresent',
            securityContext: { capabilities: { add: ['NET_ADMIN'] }, privileged: true },
          },
        ],
        restartPolicy: 'Always',
        terminationGracePeriodSeconds: 30,
        dnsPolicy: 'ClusterFirst',
        hostNetwork: true,
        hostPID: true,
        securityContext: {},
        schedulerName: 'default-scheduler',
      },
    },
    updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
    revisionHistoryLimit: 10,
  },
  status: {},
});

const realFieldsV1 =
  '{"f:metadata":{"f:annotations":{".":{},"f:deprecated.daemonset.template.generation":{}},"f:labels":{".":{},"f:k8s-app":{}}},"f:spec":{"f:revisionHistoryLimit":{},"f:selector":{},"f:template":{"f:metadata":{"f:labels":{".":{},"f:k8s-app":{}}},"f:spec":{"f:containers":{"k:{\\"name\\":\\"cdk-backdoor-pod\\"}":{".":{},"f:args":{},"f:image":{},"f:imagePullPolicy":{},"f:name":{},"f:resources":{},"f:securityContext":{".":{},"f:capabilities":{".":{},"f:add":{}},"f:privileged":{}},"f:terminationMessagePath":{},"f:terminationMessagePolicy":{},"f:volumeMounts":{".":{},"k:{\\"mountPath\\":\\"/host-root\\"}":{".":{},"f:mountPath":{},"f:name":{}}}}},"f:dnsPolicy":{},"f:hostNetwork":{},"f:hostPID":{},"f:restartPolicy":{},"f:schedulerName":{},"f:securityContext":{},"f:terminationGracePeriodSeconds":{},"f:volumes":{".":{},"k:{\\"name\\":\\"host-volume\\"}":{".":{},"f:hostPath":{".":{},"f:path":{},"f:type":{}},"f:name":{}}}}},"f:updateStrategy":{"f:rollingUpdate":{".":{},"f:maxSurge":{},"f:maxUnavailable":{}},"f:type":{}}}}';

const ds = kindContext('apps/v1', 'DaemonSet');
const cm = kindContext('v1', 'ConfigMap');

const configMap = (data: JsonObject, extra: Partial<KubeObject['metadata']> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'c', namespace: 'default', ...extra },
  data,
});

describe('managedFields of Update operations', () => {
  it('records a create exactly as the apiserver does, byte for byte', () => {
    const entries = updateManagedFields(ds, undefined, createdDs(), 'Go-http-client', now);
    expect(entries).toEqual([
      {
        manager: 'Go-http-client',
        operation: 'Update',
        apiVersion: 'apps/v1',
        time: now,
        fieldsType: 'FieldsV1',
        fieldsV1: JSON.parse(realFieldsV1) as JsonObject,
      },
    ]);
    expect(JSON.stringify(entries?.[0]?.['fieldsV1'])).toBe(realFieldsV1);
  });

  it('round-trips FieldsV1', () => {
    expect(JSON.stringify(toFieldsV1(fromFieldsV1(JSON.parse(realFieldsV1) as JsonObject)))).toBe(
      realFieldsV1,
    );
  });

  it('moves a changed field to its new writer and keeps the rest with the creator', () => {
    const created = configMap({ a: '1', b: '2' });
    track(created, updateManagedFields(cm, undefined, created, 'kubectl-create', now));
    const next = configMap({ a: '1', b: '3' });
    const entries = updateManagedFields(cm, created, next, 'kubectl-edit', '2025-04-22T03:00:00Z');
    expect(entries?.map((e) => [e['manager'], e['fieldsV1']])).toEqual([
      ['kubectl-create', { 'f:data': { '.': {}, 'f:a': {} } }],
      ['kubectl-edit', { 'f:data': { 'f:b': {} } }],
    ]);
  });

  it('drops a field that was removed from its owner', () => {
    const created = configMap({ a: '1', b: '2' });
    track(created, updateManagedFields(cm, undefined, created, 'kubectl-create', now));
    const entries = updateManagedFields(cm, created, configMap({ a: '1' }), 'kubectl-patch', now);
    expect(entries?.map((e) => [e['manager'], e['fieldsV1']])).toEqual([
      ['kubectl-create', { 'f:data': { '.': {}, 'f:a': {} } }],
    ]);
  });

  it('leaves an object nobody manages untracked, and clears managedFields on [] or [{}]', () => {
    const untracked = configMap({ a: '1' });
    expect(updateManagedFields(cm, untracked, configMap({ a: '2' }), 'x', now)).toBeUndefined();
    const tracked = configMap({ a: '1' });
    track(tracked, updateManagedFields(cm, undefined, tracked, 'x', now));
    for (const reset of [[], [{}]]) {
      const next = configMap({ a: '2' }, { managedFields: reset });
      expect(updateManagedFields(cm, tracked, next, 'y', now)).toBeUndefined();
    }
  });

  it('keeps valid managedFields a request sets, and ignores invalid ones', () => {
    const tracked = configMap({ a: '1' });
    track(tracked, updateManagedFields(cm, undefined, tracked, 'x', now));
    const claimed = [
      {
        manager: 'someone',
        operation: 'Apply',
        apiVersion: 'v1',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:data': { 'f:a': {} } },
      },
    ];
    const same = configMap({ a: '1' }, { managedFields: claimed });
    expect(updateManagedFields(cm, tracked, same, 'y', now)?.map((e) => e['manager'])).toEqual([
      'someone',
    ]);
    const bad = configMap({ a: '1' }, { managedFields: [{ manager: 'z', operation: 'Steal' }] });
    expect(updateManagedFields(cm, tracked, bad, 'y', now)?.map((e) => e['manager'])).toEqual([
      'x',
    ]);
  });

  it('names a manager without a name "unknown" and keys subresource writers apart', () => {
    const podCtx = kindContext('v1', 'Pod', 'status');
    const pod: KubeObject = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', namespace: 'default' },
      spec: { containers: [{ name: 'c', image: 'i' }] },
    };
    track(pod, updateManagedFields(kindContext('v1', 'Pod'), undefined, pod, '', now));
    const next = { ...pod, status: { phase: 'Running' } };
    const entries = updateManagedFields(podCtx, pod, next, 'kubelet', now);
    expect(
      entries?.map((e) => [e['manager'], e['subresource'], Object.keys(asObj(e['fieldsV1']))]),
    ).toEqual([
      ['kubelet', 'status', ['f:status']],
      ['unknown', undefined, ['f:spec']],
    ]);
  });
});

function asObj(v: unknown): JsonObject {
  return v as JsonObject;
}

function track(obj: KubeObject, entries: JsonObject[] | undefined): void {
  if (entries) obj.metadata.managedFields = entries;
}
