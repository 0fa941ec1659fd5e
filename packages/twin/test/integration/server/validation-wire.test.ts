// The registry strategies' validation, one row per rule issue 7 names, through the real kubectl
// (`create -f`: exit 1 and the text it prints) and @kubernetes/client-node (the 422 Invalid Status
// with its details.causes). Messages and field paths are those of the 1.33 validators:
//   - DaemonSets: pkg/apis/apps/validation/validation.go (ValidateDaemonSetSpec,
//     ValidateRollingUpdateDaemonSet, ValidateDaemonSetUpdate) and the apps/v1 selector
//     immutability in pkg/registry/apps/daemonset/strategy.go (ValidateUpdate).
//   - Pods, ConfigMaps, Nodes, node affinity: pkg/apis/core/validation/validation.go
//     (ValidatePodSpec, validateRestartPolicy, ValidateConfigMap, ValidateNode, validateNodeTaints,
//     ValidateNodeSelectorRequirement, validateKubeFinalizerName).
//   - Leases: pkg/apis/coordination/validation/validation.go (ValidateLeaseSpec).
//   - Metadata: staging/src/k8s.io/apimachinery/pkg/api/validation/objectmeta.go (ValidateAnnotations
//     with TotalAnnotationSizeLimitB, ValidateFinalizers) and
//     apimachinery/pkg/apis/meta/v1/validation (ValidateLabels), with the texts of
//     apimachinery/pkg/util/validation (IsQualifiedName, IsValidLabelValue, IsDNS1123Subdomain,
//     IsConfigMapKey) and apimachinery/pkg/util/validation/field/errors.go (ErrorBody).
// The Status message is errors.NewInvalid's `<kind>.<group> "<name>" is invalid: <aggregate>`
// (staging/src/k8s.io/apimachinery/pkg/api/errors/errors.go); kubectl prints
// `The <Kind> "<name>" is invalid: ` and one cause, or one `* field: message` line per distinct
// cause (staging/src/k8s.io/kubectl/pkg/cmd/util/helpers.go, MultilineError and
// statusCausesToAggrError).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KubernetesObject, V1DaemonSet } from '@kubernetes/client-node';
import {
  ApiException,
  AppsV1Api,
  CoordinationV1Api,
  KubeConfig,
  KubernetesObjectApi,
  PatchStrategy,
  setHeaderOptions,
} from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Twin } from '../../../src/index.js';
import { startTwin } from '../../../src/index.js';
import type { Kubectl } from '../../../src/testing/kubectl.js';
import { kubectlWith } from '../../../src/testing/kubectl.js';

let twin: Twin;
let dir: string;
let kubectl: Kubectl;
let objects: KubernetesObjectApi;
let apps: AppsV1Api;
let coordination: CoordinationV1Api;

beforeAll(async () => {
  twin = await startTwin({ scenario: 'kubeadm-ipvs', controllers: false });
  dir = await mkdtemp(join(tmpdir(), 'twin-validation-wire-'));
  await twin.writeKubeconfig(join(dir, 'kubeconfig'));
  kubectl = kubectlWith(join(dir, 'kubeconfig'), dir, { timeoutMs: 25_000 });
  const kc = new KubeConfig();
  kc.loadFromString(twin.kubeconfigYaml());
  objects = kc.makeApiClient(KubernetesObjectApi);
  apps = kc.makeApiClient(AppsV1Api);
  coordination = kc.makeApiClient(CoordinationV1Api);
});

afterAll(async () => {
  await twin.close();
  await rm(dir, { recursive: true, force: true });
});

export interface Cause {
  reason: string;
  message: string;
  field: string;
}

interface StatusBody {
  kind: string;
  apiVersion: string;
  status: string;
  code: number;
  reason: string;
  message: string;
  details: { name: string; group?: string; kind: string; causes: Cause[] };
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

/** errors.NewInvalid's message: the aggregate prints one error bare, several in brackets. */
function invalidMessage(qualifiedKind: string, name: string, causes: Cause[]): string {
  const distinct = [...new Set(causes.map((c) => `${c.field}: ${c.message}`))];
  const agg = distinct.length === 1 ? distinct[0] : `[${distinct.join(', ')}]`;
  return `${qualifiedKind} "${name}" is invalid: ${agg}`;
}

/** kubectl's text for a 422 with causes. */
function kubectlInvalid(kind: string, name: string, causes: Cause[]): string {
  const distinct = [...new Set(causes.map((c) => `${c.field}: ${c.message}`))];
  const prefix = `The ${kind} "${name}" is invalid: `;
  if (distinct.length === 1) return `${prefix}${distinct[0]}\n`;
  return `${prefix}\n${distinct.map((d) => `* ${d}\n`).join('')}`;
}

const invalid = (field: string, message: string): Cause => ({
  reason: 'FieldValueInvalid',
  message: `Invalid value: ${message}`,
  field,
});
const required = (field: string, detail = ''): Cause => ({
  reason: 'FieldValueRequired',
  message: detail === '' ? 'Required value' : `Required value: ${detail}`,
  field,
});
const forbidden = (field: string, detail: string): Cause => ({
  reason: 'FieldValueForbidden',
  message: `Forbidden: ${detail}`,
  field,
});
const notSupported = (field: string, value: string, supported: string[]): Cause => ({
  reason: 'FieldValueNotSupported',
  message: `Unsupported value: "${value}": supported values: ${supported.map((s) => `"${s}"`).join(', ')}`,
  field,
});
const tooLong = (field: string, bytes: number): Cause => ({
  reason: 'FieldValueTooLong',
  message: `Too long: may not be more than ${bytes} bytes`,
  field,
});

// apimachinery/pkg/util/validation/validation.go texts.
const qualifiedNamePart =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const dns1123Subdomain =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const labelValue =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const configKey =
  "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";
const dns1123Label =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const selectorMismatch =
  'map[string]string{"app":"agent"}: `selector` does not match template `labels`';
const inOrNotIn = "must be specified when `operator` is 'In' or 'NotIn'";
const existsOrNot = "may not be specified when `operator` is 'Exists' or 'DoesNotExist'";
const affinityTerm =
  'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions';

type Body = KubernetesObject & Record<string, unknown>;

const podTemplate = (spec: Record<string, unknown> = {}) => ({
  metadata: { labels: { app: 'agent' } },
  spec: { containers: [{ name: 'agent', image: 'agent:1' }], ...spec },
});

function daemonSet(name: string, spec: Record<string, unknown>, meta = {}): Body {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name, namespace: 'default', ...meta },
    spec: { selector: { matchLabels: { app: 'agent' } }, template: podTemplate(), ...spec },
  };
}

const pod = (name: string, spec: Record<string, unknown>): Body => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'default' },
  spec: { containers: [{ name: 'c', image: 'c:1' }], ...spec },
});

const configMap = (metadata: Record<string, unknown>, data: Record<string, string> = {}): Body => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { namespace: 'default', ...metadata },
  data,
});

const lease = (name: string, spec: Record<string, unknown>): Body => ({
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: { name, namespace: 'default' },
  spec,
});

interface Row {
  rule: string;
  /** As kubectl prints it, and with the group as the Status message names it. */
  kind: string;
  qualifiedKind: string;
  body: Body;
  causes: Cause[];
}

const noSelector = daemonSet('ds-no-selector', {});
delete (noSelector['spec'] as Record<string, unknown>)['selector'];

const rows: Row[] = [
  {
    // A nil selector is labels.Nothing(), which matches no template (ValidateDaemonSetSpec).
    rule: 'DaemonSet without a selector',
    kind: 'DaemonSet',
    qualifiedKind: 'DaemonSet.apps',
    body: noSelector,
    causes: [invalid('spec.template.metadata.labels', selectorMismatch)],
  },
  {
    rule: 'DaemonSet whose selector does not match the template labels',
    kind: 'DaemonSet',
    qualifiedKind: 'DaemonSet.apps',
    body: daemonSet('ds-mismatch', { selector: { matchLabels: { app: 'other' } } }),
    causes: [invalid('spec.template.metadata.labels', selectorMismatch)],
  },
  {
    rule: 'DaemonSet with an empty selector',
    kind: 'DaemonSet',
    qualifiedKind: 'DaemonSet.apps',
    body: daemonSet('ds-empty-selector', { selector: {} }),
    causes: [
      invalid(
        'spec.selector',
        'v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for daemonset',
      ),
    ],
  },
  {
    rule: 'DaemonSet with no containers',
    kind: 'DaemonSet',
    qualifiedKind: 'DaemonSet.apps',
    body: daemonSet('ds-no-containers', {
      template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [] } },
    }),
    causes: [required('spec.template.spec.containers')],
  },
  {
    rule: 'DaemonSet with restartPolicy OnFailure',
    kind: 'DaemonSet',
    qualifiedKind: 'DaemonSet.apps',
    body: daemonSet('ds-on-failure', { template: podTemplate({ restartPolicy: 'OnFailure' }) }),
    causes: [notSupported('spec.template.spec.restartPolicy', 'OnFailure', ['Always'])],
  },
  {
    rule: 'DaemonSet rollingUpdate with maxSurge and maxUnavailable both non-zero',
    kind: 'DaemonSet',
    qualifiedKind: 'DaemonSet.apps',
    body: daemonSet('ds-both-set', {
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 1 } },
    }),
    causes: [
      invalid(
        'spec.updateStrategy.rollingUpdate.maxSurge',
        'intstr.IntOrString{Type:0, IntVal:1, StrVal:""}: may not be set when maxUnavailable is non-zero',
      ),
    ],
  },
  {
    rule: 'DaemonSet rollingUpdate with maxSurge and maxUnavailable both zero',
    kind: 'DaemonSet',
    qualifiedKind: 'DaemonSet.apps',
    body: daemonSet('ds-both-zero', {
      updateStrategy: {
        type: 'RollingUpdate',
        rollingUpdate: { maxSurge: '0%', maxUnavailable: 0 },
      },
    }),
    causes: [
      required(
        'spec.updateStrategy.rollingUpdate.maxUnavailable',
        'cannot be 0 when maxSurge is 0',
      ),
    ],
  },
  {
    rule: 'DaemonSet with an unqualified, non-standard finalizer',
    kind: 'DaemonSet',
    qualifiedKind: 'DaemonSet.apps',
    body: daemonSet('ds-finalizer', {}, { finalizers: ['custom'] }),
    causes: [
      invalid(
        'metadata.finalizers[0]',
        '"custom": name is neither a standard finalizer name nor is it fully qualified',
      ),
    ],
  },
  {
    rule: 'Pod without containers',
    kind: 'Pod',
    qualifiedKind: 'Pod',
    body: pod('pod-no-containers', { containers: [] }),
    causes: [required('spec.containers')],
  },
  {
    rule: 'Pod with a bad container name and no image, and an unknown restartPolicy',
    kind: 'Pod',
    qualifiedKind: 'Pod',
    body: pod('pod-bad-container', { restartPolicy: 'Sometimes', containers: [{ name: 'C_1' }] }),
    causes: [
      invalid('spec.containers[0].name', `"C_1": ${dns1123Label}`),
      required('spec.containers[0].image'),
      notSupported('spec.restartPolicy', 'Sometimes', ['Always', 'OnFailure', 'Never']),
    ],
  },
  {
    rule: 'Pod node affinity: bad operator, In and NotIn without values, Exists with values',
    kind: 'Pod',
    qualifiedKind: 'Pod',
    body: pod('pod-affinity', {
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [
              {
                matchExpressions: [
                  { key: 'a', operator: 'Near', values: ['x'] },
                  { key: 'b', operator: 'In' },
                  { key: 'c', operator: 'NotIn', values: [] },
                  { key: 'd', operator: 'Exists', values: ['x'] },
                  { key: 'e', operator: 'DoesNotExist', values: ['y'] },
                  { key: 'f', operator: 'Gt', values: ['1', '2'] },
                ],
              },
            ],
          },
        },
      },
    }),
    causes: [
      invalid(`${affinityTerm}[0].operator`, '"Near": not a valid selector operator'),
      required(`${affinityTerm}[1].values`, inOrNotIn),
      required(`${affinityTerm}[2].values`, inOrNotIn),
      forbidden(`${affinityTerm}[3].values`, existsOrNot),
      forbidden(`${affinityTerm}[4].values`, existsOrNot),
      required(
        `${affinityTerm}[5].values`,
        "must be specified single value when `operator` is 'Lt' or 'Gt'",
      ),
    ],
  },
  {
    rule: 'DaemonSet pod template node affinity: Exists with values',
    kind: 'DaemonSet',
    qualifiedKind: 'DaemonSet.apps',
    body: daemonSet('ds-affinity', {
      template: podTemplate({
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [
                { matchExpressions: [{ key: 'node-role', operator: 'Exists', values: ['x'] }] },
              ],
            },
          },
        },
      }),
    }),
    causes: [forbidden(`spec.template.${affinityTerm}[0].values`, existsOrNot)],
  },
  {
    // Keys are checked in sorted order; Go's map order is random, the twin's is not.
    rule: 'ConfigMap with bad key names',
    kind: 'ConfigMap',
    qualifiedKind: 'ConfigMap',
    body: configMap({ name: 'cm-bad-keys' }, { 'a b': '1', '..': '2', ok: '3' }),
    causes: [
      invalid('data[..]', `"..": must not be '..'`),
      invalid('data[a b]', `"a b": ${configKey}`),
    ],
  },
  {
    // core.MaxSecretSize over data and binaryData, reported at the empty path (`[]`).
    rule: 'ConfigMap over 1 MiB in all',
    kind: 'ConfigMap',
    qualifiedKind: 'ConfigMap',
    body: configMap({ name: 'cm-too-big' }, { a: 'x'.repeat(1024 * 1024), b: 'y' }),
    causes: [tooLong('[]', 1024 * 1024)],
  },
  {
    rule: 'metadata: a label key that is not a qualified name',
    kind: 'ConfigMap',
    qualifiedKind: 'ConfigMap',
    body: configMap({ name: 'meta-label-key', labels: { 'bad key': 'v', 'ok.io/x': 'v' } }),
    causes: [invalid('metadata.labels', `"bad key": ${qualifiedNamePart}`)],
  },
  {
    rule: 'metadata: a label key with a bad prefix',
    kind: 'ConfigMap',
    qualifiedKind: 'ConfigMap',
    body: configMap({ name: 'meta-label-prefix', labels: { 'Bad_Prefix/k': 'v' } }),
    causes: [invalid('metadata.labels', `"Bad_Prefix/k": prefix part ${dns1123Subdomain}`)],
  },
  {
    rule: 'metadata: a bad label value',
    kind: 'ConfigMap',
    qualifiedKind: 'ConfigMap',
    body: configMap({ name: 'meta-label-value', labels: { k: 'bad value!' } }),
    causes: [invalid('metadata.labels', `"bad value!": ${labelValue}`)],
  },
  {
    rule: 'metadata: a bad annotation key',
    kind: 'ConfigMap',
    qualifiedKind: 'ConfigMap',
    body: configMap({ name: 'meta-annotation-key', annotations: { 'bad key': 'v' } }),
    causes: [invalid('metadata.annotations', `"bad key": ${qualifiedNamePart}`)],
  },
  {
    // TotalAnnotationSizeLimitB counts keys and values: 1 + 262144 bytes.
    rule: 'metadata: annotations over 256 KiB',
    kind: 'ConfigMap',
    qualifiedKind: 'ConfigMap',
    body: configMap({ name: 'meta-annotation-size', annotations: { a: 'x'.repeat(256 * 1024) } }),
    causes: [tooLong('metadata.annotations', 256 * 1024)],
  },
  {
    rule: 'metadata: a name that is not a DNS subdomain',
    kind: 'ConfigMap',
    qualifiedKind: 'ConfigMap',
    body: configMap({ name: 'Bad_Name' }),
    causes: [invalid('metadata.name', `"Bad_Name": ${dns1123Subdomain}`)],
  },
  {
    // ValidateFinalizers reports at metadata.finalizers, validateKubeFinalizerName at the index.
    rule: 'metadata: a finalizer with a bad prefix and an unqualified non-standard one',
    kind: 'ConfigMap',
    qualifiedKind: 'ConfigMap',
    body: configMap({ name: 'meta-finalizers', finalizers: ['custom', 'bad key/x'] }),
    causes: [
      invalid('metadata.finalizers', `"bad key/x": prefix part ${dns1123Subdomain}`),
      invalid(
        'metadata.finalizers[0]',
        '"custom": name is neither a standard finalizer name nor is it fully qualified',
      ),
    ],
  },
  {
    rule: 'Node with a bad name',
    kind: 'Node',
    qualifiedKind: 'Node',
    body: { apiVersion: 'v1', kind: 'Node', metadata: { name: 'Node_1' } },
    causes: [invalid('metadata.name', `"Node_1": ${dns1123Subdomain}`)],
  },
  {
    // validateNodeTaints is called with the metadata path, so taints show as metadata.taints.
    rule: 'Node with a duplicate taint, a bad taint key and an unknown effect',
    kind: 'Node',
    qualifiedKind: 'Node',
    body: {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'bad-taints' },
      spec: {
        taints: [
          { key: 'a', effect: 'NoSchedule' },
          { key: 'a', effect: 'NoSchedule' },
          { key: 'bad key', effect: 'Bogus' },
        ],
      },
    },
    causes: [
      {
        reason: 'FieldValueDuplicate',
        message:
          'Duplicate value: core.Taint{Key:"a", Value:"", Effect:"NoSchedule", TimeAdded:(*v1.Time)(nil)}: taints must be unique by key and effect pair',
        field: 'metadata.taints[1]',
      },
      invalid('metadata.taints[2].key', `"bad key": ${qualifiedNamePart}`),
      notSupported('metadata.taints[2].effect', 'Bogus', [
        'NoSchedule',
        'PreferNoSchedule',
        'NoExecute',
      ]),
    ],
  },
  {
    rule: 'Node with a pod CIDR that does not parse',
    kind: 'Node',
    qualifiedKind: 'Node',
    body: {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'bad-cidr' },
      spec: { podCIDR: '10.0.0.0/33' },
    },
    causes: [
      invalid(
        'spec.podCIDRs[0]',
        '"10.0.0.0/33": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
      ),
    ],
  },
  {
    rule: 'Lease with a zero leaseDurationSeconds',
    kind: 'Lease',
    qualifiedKind: 'Lease.coordination.k8s.io',
    body: lease('lease-zero', { holderIdentity: 'me', leaseDurationSeconds: 0 }),
    causes: [invalid('spec.leaseDurationSeconds', '0: must be greater than 0')],
  },
  {
    rule: 'Lease with a negative duration and negative transitions',
    kind: 'Lease',
    qualifiedKind: 'Lease.coordination.k8s.io',
    body: lease('lease-negative', { leaseDurationSeconds: -5, leaseTransitions: -1 }),
    causes: [
      invalid('spec.leaseDurationSeconds', '-5: must be greater than 0'),
      invalid('spec.leaseTransitions', '-1: must be greater than or equal to 0'),
    ],
  },
];

const group = (body: Body): string | undefined => {
  const apiVersion = body.apiVersion ?? '';
  return apiVersion.includes('/') ? apiVersion.split('/')[0] : undefined;
};

describe('client-node gets the 422 Invalid Status with every cause', () => {
  it.each(rows)('$rule', async ({ qualifiedKind, body, causes }) => {
    const name = body.metadata?.name ?? '';
    const error = await apiError(objects.create(body));
    expect(error.code).toBe(422);
    const status = JSON.parse(error.body) as StatusBody;
    const g = group(body);
    expect(status).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: invalidMessage(qualifiedKind, name, causes),
      reason: 'Invalid',
      details: { name, ...(g === undefined ? {} : { group: g }), kind: body.kind, causes },
      code: 422,
    });
    // Nothing was stored.
    await expect(
      objects.read({ ...body, metadata: { ...body.metadata, name } }),
    ).rejects.toMatchObject({
      code: 404,
    });
  });
});

describe('kubectl create prints the 422 and exits 1', () => {
  it.each(rows)('$rule', async ({ kind, body, causes }) => {
    const name = body.metadata?.name ?? '';
    const path = join(dir, `${name}.json`);
    await writeFile(path, JSON.stringify(body));
    const r = await kubectl('create', '-f', path);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(kubectlInvalid(kind, name, causes));
  });
});

describe('updates judged by the update rules', () => {
  const agent = (selectorApp: string): V1DaemonSet => ({
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'agent', namespace: 'default' },
    spec: {
      selector: { matchLabels: { app: selectorApp } },
      template: {
        metadata: { labels: { app: selectorApp } },
        spec: { containers: [{ name: 'agent', image: 'agent:1' }] },
      },
    },
  });

  it('refuses a DaemonSet selector change even when the template follows it (client-node replace)', async () => {
    const created = await apps.createNamespacedDaemonSet({
      namespace: 'default',
      body: agent('agent'),
    });
    const changed = agent('agent-2');
    changed.metadata = {
      ...changed.metadata,
      resourceVersion: created.metadata?.resourceVersion ?? '',
    };
    const error = await apiError(
      apps.replaceNamespacedDaemonSet({ name: 'agent', namespace: 'default', body: changed }),
    );
    expect(error.code).toBe(422);
    const cause = invalid(
      'spec.selector',
      'v1.LabelSelector{MatchLabels:map[string]string{"app":"agent-2"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable',
    );
    expect(JSON.parse(error.body)).toMatchObject({
      reason: 'Invalid',
      message: invalidMessage('DaemonSet.apps', 'agent', [cause]),
      details: { name: 'agent', group: 'apps', kind: 'DaemonSet', causes: [cause] },
    });
  });

  it('refuses the same change from kubectl apply, with exit 1', async () => {
    const path = join(dir, 'agent-2.json');
    await writeFile(path, JSON.stringify(agent('agent-2')));
    const r = await kubectl('apply', '-f', path);
    expect(r.code).toBe(1);
    // The object was created without kubectl apply, so kubectl first warns (apply.go) and would
    // add its annotation in the same patch the server refuses.
    expect(r.stderr).toBe(
      'Warning: resource daemonsets/agent is missing the kubectl.kubernetes.io/last-applied-configuration annotation which is required by kubectl apply. kubectl apply should only be used on resources created declaratively by either kubectl create --save-config or kubectl apply. The missing annotation will be patched automatically.\n' +
        'The DaemonSet "agent" is invalid: spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"agent-2"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable\n',
    );
    expect(
      (await kubectl('get', 'ds', 'agent', '-o', 'jsonpath={.spec.selector.matchLabels.app}'))
        .stdout,
    ).toBe('agent');
  });

  it('lists a spec error twice in causes on update (ValidateDaemonSet and ValidateDaemonSetUpdate), once in kubectl', async () => {
    const patch = {
      spec: {
        updateStrategy: {
          type: 'RollingUpdate',
          rollingUpdate: { maxSurge: 0, maxUnavailable: 0 },
        },
      },
    };
    const error = await apiError(
      apps.patchNamespacedDaemonSet(
        { name: 'agent', namespace: 'default', body: patch },
        // The generated client sends a JSON patch unless told otherwise.
        setMergePatch(),
      ),
    );
    expect(error.code).toBe(422);
    const cause = required(
      'spec.updateStrategy.rollingUpdate.maxUnavailable',
      'cannot be 0 when maxSurge is 0',
    );
    const status = JSON.parse(error.body) as StatusBody;
    expect(status.details.causes).toEqual([cause, cause]);
    expect(status.message).toBe(invalidMessage('DaemonSet.apps', 'agent', [cause]));
    const r = await kubectl('patch', 'ds', 'agent', '--type', 'merge', '-p', JSON.stringify(patch));
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(kubectlInvalid('DaemonSet', 'agent', [cause]));
  });

  it('refuses a Lease update to a zero duration, through client-node and kubectl', async () => {
    await coordination.createNamespacedLease({
      namespace: 'default',
      body: {
        metadata: { name: 'lock' },
        spec: { holderIdentity: 'me', leaseDurationSeconds: 30 },
      },
    });
    const error = await apiError(
      coordination.patchNamespacedLease(
        { name: 'lock', namespace: 'default', body: { spec: { leaseDurationSeconds: 0 } } },
        setMergePatch(),
      ),
    );
    expect(error.code).toBe(422);
    const cause = invalid('spec.leaseDurationSeconds', '0: must be greater than 0');
    expect(JSON.parse(error.body)).toMatchObject({
      reason: 'Invalid',
      message: invalidMessage('Lease.coordination.k8s.io', 'lock', [cause]),
      details: { group: 'coordination.k8s.io', kind: 'Lease', causes: [cause] },
    });
    const r = await kubectl(
      'patch',
      'lease',
      'lock',
      '--type',
      'merge',
      '-p',
      '{"spec":{"leaseDurationSeconds":-1}}',
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'The Lease "lock" is invalid: spec.leaseDurationSeconds: Invalid value: -1: must be greater than 0\n',
    );
  });

  it('refuses a bad label value on a Node (kubectl patch; kubectl label checks it itself)', async () => {
    const r = await kubectl(
      'patch',
      'node',
      'blue-1',
      '--type',
      'merge',
      '-p',
      '{"metadata":{"labels":{"pool":"bad value"}}}',
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `The Node "blue-1" is invalid: metadata.labels: Invalid value: "bad value": ${labelValue}\n`,
    );
  });
});

function setMergePatch() {
  return setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
}
