// Writes the apiserver rejects, through the real kubectl and @kubernetes/client-node: exit codes
// and the text kubectl prints for a 422, the Status body with details.causes, and dry runs that
// answer exactly as the real write.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { V1DaemonSet } from '@kubernetes/client-node';
import { ApiException, AppsV1Api, CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Twin } from '../../../src/index.js';
import { startTwin } from '../../../src/index.js';
import type { Kubectl } from '../../../src/testing/kubectl.js';
import { kubectlWith } from '../../../src/testing/kubectl.js';

let twin: Twin;
let dir: string;
let kubectl: Kubectl;
let core: CoreV1Api;
let apps: AppsV1Api;

const daemonSetYaml = (selectorApp: string, name = 'agent'): string => `apiVersion: apps/v1
kind: DaemonSet
metadata: {name: ${name}, namespace: default}
spec:
  selector: {matchLabels: {app: ${selectorApp}}}
  template:
    metadata: {labels: {app: agent}}
    spec: {containers: [{name: agent, image: "agent:1"}]}
`;

async function file(name: string, text: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
}

async function apiError(promise: Promise<unknown>): Promise<ApiException<string>> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiException) return error as ApiException<string>;
    throw error;
  }
  throw new Error('expected an ApiException');
}

/** A response without what differs between two writes of the same object. */
function comparable(obj: Record<string, unknown>): Record<string, unknown> {
  const meta = { ...(obj['metadata'] as Record<string, unknown>) };
  for (const k of ['uid', 'resourceVersion', 'creationTimestamp', 'managedFields']) delete meta[k];
  return { ...obj, metadata: meta };
}

beforeAll(async () => {
  twin = await startTwin({ scenario: 'kubeadm-ipvs', controllers: false });
  dir = await mkdtemp(join(tmpdir(), 'twin-validation-'));
  await twin.writeKubeconfig(join(dir, 'kubeconfig'));
  kubectl = kubectlWith(join(dir, 'kubeconfig'), dir, { timeoutMs: 20_000 });
  const kc = new KubeConfig();
  kc.loadFromString(twin.kubeconfigYaml());
  core = kc.makeApiClient(CoreV1Api);
  apps = kc.makeApiClient(AppsV1Api);
});

afterAll(async () => {
  await twin.close();
  await rm(dir, { recursive: true, force: true });
});

describe('kubectl against the validating twin', () => {
  it('prints the 422 for a DaemonSet whose selector does not match its template', async () => {
    const r = await kubectl('apply', '-f', await file('bad-ds.yaml', daemonSetYaml('other')));
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'The DaemonSet "agent" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"agent"}: `selector` does not match template `labels`\n',
    );
  });

  it('answers a server-side dry run exactly as the real apply', async () => {
    const path = await file('ds.yaml', daemonSetYaml('agent'));
    const dry = await kubectl('apply', '-f', path, '--dry-run=server', '-o', 'json');
    expect(dry.code).toBe(0);
    expect((await kubectl('get', 'ds', 'agent')).code).toBe(1);
    const real = await kubectl('apply', '-f', path, '-o', 'json');
    expect(real.code).toBe(0);
    const dryObj = JSON.parse(dry.stdout) as Record<string, unknown>;
    const realObj = JSON.parse(real.stdout) as Record<string, unknown>;
    expect(comparable(dryObj)).toEqual(comparable(realObj));
    expect(realObj['metadata']).toMatchObject({
      generation: 1,
      annotations: { 'deprecated.daemonset.template.generation': '1' },
    });
    expect(realObj['status']).toEqual({});
  });

  it('refuses a selector change with field is immutable, each cause on its own line', async () => {
    const r = await kubectl(
      'patch',
      'ds',
      'agent',
      '--type',
      'merge',
      '-p',
      '{"spec":{"selector":{"matchLabels":{"app":"x"}}}}',
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      [
        'The DaemonSet "agent" is invalid: ',
        '* spec.template.metadata.labels: Invalid value: map[string]string{"app":"agent"}: `selector` does not match template `labels`',
        '* spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"x"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable',
        '',
      ].join('\n'),
    );
  });

  it('bumps the template generation on a template patch, in a dry run too', async () => {
    const patch =
      '{"spec":{"template":{"spec":{"containers":[{"name":"agent","image":"agent:2"}]}}}}';
    const dry = await kubectl(
      'patch',
      'ds',
      'agent',
      '--type',
      'merge',
      '-p',
      patch,
      '--dry-run=server',
      '-o',
      'json',
    );
    const real = await kubectl(
      'patch',
      'ds',
      'agent',
      '--type',
      'merge',
      '-p',
      patch,
      '-o',
      'json',
    );
    const dryObj = JSON.parse(dry.stdout) as Record<string, unknown>;
    expect(dryObj['metadata']).toMatchObject({
      generation: 2,
      annotations: { 'deprecated.daemonset.template.generation': '2' },
    });
    expect(comparable(dryObj)).toEqual(
      comparable(JSON.parse(real.stdout) as Record<string, unknown>),
    );
  });

  it('rejects bad ConfigMap keys and changes to an immutable ConfigMap', async () => {
    const bad = await kubectl(
      'create',
      '-f',
      await file(
        'cm.yaml',
        'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: bad}\ndata: {"a b": "1"}\n',
      ),
    );
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe(
      `The ConfigMap "bad" is invalid: data[a b]: Invalid value: "a b": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')\n`,
    );
    const frozen =
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: frozen}\ndata: {a: "1"}\nimmutable: true\n';
    expect((await kubectl('create', '-f', await file('frozen.yaml', frozen))).code).toBe(0);
    const r = await kubectl('patch', 'cm', 'frozen', '--type', 'merge', '-p', '{"data":{"a":"2"}}');
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'The ConfigMap "frozen" is invalid: data: Forbidden: field is immutable when `immutable` is set\n',
    );
  });

  it('refuses pod spec changes other than images', async () => {
    expect((await kubectl('run', 'sleeper', '--image=busybox:1.36', '--restart=Never')).code).toBe(
      0,
    );
    const image = await kubectl('set', 'image', 'pod/sleeper', 'sleeper=busybox:1.37');
    expect(image.code).toBe(0);
    const r = await kubectl(
      'patch',
      'pod',
      'sleeper',
      '--type',
      'merge',
      '-p',
      '{"spec":{"dnsPolicy":"Default"}}',
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^The Pod "sleeper" is invalid: spec: Forbidden: pod updates may not change fields other than `spec.containers\[\*\].image`,/,
    );
  });

  it('refuses a providerID change on a Node once set', async () => {
    expect(
      (
        await kubectl(
          'patch',
          'node',
          'blue-1',
          '--type',
          'merge',
          '-p',
          '{"spec":{"providerID":"kind://a"}}',
        )
      ).code,
    ).toBe(0);
    const r = await kubectl(
      'patch',
      'node',
      'blue-1',
      '--type',
      'merge',
      '-p',
      '{"spec":{"providerID":"kind://b"}}',
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'The Node "blue-1" is invalid: spec.providerID: Forbidden: node updates may not change providerID except from "" to valid\n',
    );
  });
});

describe('client-node against the validating twin', () => {
  const body = (selectorApp: string, name: string): V1DaemonSet => ({
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name },
    spec: {
      selector: { matchLabels: { app: selectorApp } },
      template: {
        metadata: { labels: { app: 'agent' } },
        spec: { containers: [{ name: 'a', image: 'a:1' }] },
      },
    },
  });

  it('gets the 422 Status with details.causes', async () => {
    const error = await apiError(
      apps.createNamespacedDaemonSet({ namespace: 'default', body: body('other', 'cn-bad') }),
    );
    expect(error.code).toBe(422);
    expect(JSON.parse(error.body)).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'DaemonSet.apps "cn-bad" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"agent"}: `selector` does not match template `labels`',
      reason: 'Invalid',
      details: {
        name: 'cn-bad',
        group: 'apps',
        kind: 'DaemonSet',
        causes: [
          {
            reason: 'FieldValueInvalid',
            message:
              'Invalid value: map[string]string{"app":"agent"}: `selector` does not match template `labels`',
            field: 'spec.template.metadata.labels',
          },
        ],
      },
      code: 422,
    });
  });

  it('gets node affinity and taint errors with their field paths', async () => {
    const error = await apiError(
      core.createNamespacedPod({
        namespace: 'default',
        body: {
          metadata: { name: 'affine' },
          spec: {
            containers: [{ name: 'c', image: 'c:1' }],
            affinity: {
              nodeAffinity: {
                requiredDuringSchedulingIgnoredDuringExecution: {
                  nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In' }] }],
                },
              },
            },
          },
        },
      }),
    );
    expect(error.code).toBe(422);
    const status = JSON.parse(error.body) as {
      details: { causes: { field: string; message: string }[] };
    };
    expect(status.details.causes).toEqual([
      {
        reason: 'FieldValueRequired',
        message: "Required value: must be specified when `operator` is 'In' or 'NotIn'",
        field:
          'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values',
      },
    ]);
    const node = await core.readNode({ name: 'green-1' });
    node.spec = { ...node.spec, taints: [{ key: 'x', effect: 'Sometimes' }] };
    const taint = await apiError(core.replaceNode({ name: 'green-1', body: node }));
    expect(taint.code).toBe(422);
    expect(JSON.parse(taint.body)).toMatchObject({
      message:
        'Node "green-1" is invalid: metadata.taints[0].effect: Unsupported value: "Sometimes": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
    });
  });

  it('gets the same object from a dry-run create as from the real create', async () => {
    const dry = await apps.createNamespacedDaemonSet({
      namespace: 'default',
      body: body('agent', 'cn-ok'),
      dryRun: 'All',
    });
    await expect(
      apps.readNamespacedDaemonSet({ name: 'cn-ok', namespace: 'default' }),
    ).rejects.toThrow();
    const real = await apps.createNamespacedDaemonSet({
      namespace: 'default',
      body: body('agent', 'cn-ok'),
    });
    expect(dry.metadata?.uid).toBeDefined();
    expect(dry.metadata?.creationTimestamp).toBeDefined();
    const strip = (ds: V1DaemonSet) => ({
      ...ds,
      metadata: {
        ...ds.metadata,
        uid: undefined,
        resourceVersion: undefined,
        creationTimestamp: undefined,
      },
    });
    expect(strip(dry)).toEqual(strip(real));
  });
});
