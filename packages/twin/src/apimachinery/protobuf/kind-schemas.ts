// Field numbers of the kinds kubectl 1.32/1.33 posts as protobuf through its typed clients
// (`create namespace|configmap|secret|serviceaccount|service|deployment|pdb`, `auth can-i`, and `drain`
// with its Evictions and DeleteOptions), from k8s.io/api's generated.proto files (v0.33), keyed
// by `group/version/Kind`.

import type { MessageSchema } from './message.js';
import { message } from './message.js';
import { eviction, podDisruptionBudget } from './policy-schemas.js';
import { deployment } from './workload-schemas.js';
import {
  condition,
  deleteOptions,
  fieldSelectorRequirement,
  labelSelectorRequirement,
  list,
  objectMeta,
  of,
  ptr,
  str,
  stringMap,
  strs,
} from './meta-schemas.js';

const objectReference = message('ObjectReference', {
  1: str('kind'),
  2: str('namespace'),
  3: str('name'),
  4: str('uid'),
  5: str('apiVersion'),
  6: str('resourceVersion'),
  7: str('fieldPath'),
});

const namespace = message('Namespace', {
  1: of('metadata', objectMeta),
  2: of('spec', message('NamespaceSpec', { 1: strs('finalizers') })),
  3: of(
    'status',
    message('NamespaceStatus', {
      1: str('phase'),
      2: list(
        'conditions',
        message('NamespaceCondition', {
          1: str('type'),
          2: str('status'),
          4: of('lastTransitionTime', 'time'),
          5: str('reason'),
          6: str('message'),
        }),
      ),
    }),
  ),
});

const configMap = message('ConfigMap', {
  1: of('metadata', objectMeta),
  2: stringMap('data'),
  3: of('binaryData', { map: 'bytes' }),
  4: ptr('immutable', 'bool'),
});

const secret = message('Secret', {
  1: of('metadata', objectMeta),
  2: of('data', { map: 'bytes' }),
  3: str('type'),
  4: stringMap('stringData'),
  5: ptr('immutable', 'bool'),
});

const serviceAccount = message('ServiceAccount', {
  1: of('metadata', objectMeta),
  2: list('secrets', objectReference),
  3: list('imagePullSecrets', message('LocalObjectReference', { 1: str('name') })),
  4: ptr('automountServiceAccountToken', 'bool'),
});

const servicePort = message('ServicePort', {
  1: str('name'),
  2: str('protocol'),
  3: ptr('port', 'int32'),
  4: of('targetPort', 'intOrString'),
  5: of('nodePort', 'int32'),
  6: ptr('appProtocol', 'string'),
});

const serviceSpec = message('ServiceSpec', {
  1: list('ports', servicePort),
  2: stringMap('selector'),
  3: str('clusterIP'),
  4: str('type'),
  5: strs('externalIPs'),
  7: str('sessionAffinity'),
  8: str('loadBalancerIP'),
  9: strs('loadBalancerSourceRanges'),
  10: str('externalName'),
  11: str('externalTrafficPolicy'),
  12: of('healthCheckNodePort', 'int32'),
  13: of('publishNotReadyAddresses', 'bool'),
  14: ptr(
    'sessionAffinityConfig',
    message('SessionAffinityConfig', {
      1: ptr('clientIP', message('ClientIPConfig', { 1: ptr('timeoutSeconds', 'int32') })),
    }),
  ),
  17: ptr('ipFamilyPolicy', 'string'),
  18: strs('clusterIPs'),
  19: strs('ipFamilies'),
  20: ptr('allocateLoadBalancerNodePorts', 'bool'),
  21: ptr('loadBalancerClass', 'string'),
  22: ptr('internalTrafficPolicy', 'string'),
  23: ptr('trafficDistribution', 'string'),
});

const service = message('Service', {
  1: of('metadata', objectMeta),
  2: of('spec', serviceSpec),
  3: of(
    'status',
    message('ServiceStatus', {
      1: of(
        'loadBalancer',
        message('LoadBalancerStatus', {
          1: list(
            'ingress',
            message('LoadBalancerIngress', {
              1: str('ip'),
              2: str('hostname'),
              3: ptr('ipMode', 'string'),
              4: list(
                'ports',
                message('PortStatus', {
                  1: ptr('port', 'int32'),
                  2: str('protocol'),
                  3: ptr('error', 'string'),
                }),
              ),
            }),
          ),
        }),
      ),
      2: list('conditions', condition),
    }),
  ),
});

const selectorAttributes = (name: string, requirement: MessageSchema): MessageSchema =>
  message(name, { 1: str('rawSelector'), 2: list('requirements', requirement) });

const resourceAttributes = message('ResourceAttributes', {
  1: str('namespace'),
  2: str('verb'),
  3: str('group'),
  4: str('version'),
  5: str('resource'),
  6: str('subresource'),
  7: str('name'),
  8: ptr('fieldSelector', selectorAttributes('FieldSelectorAttributes', fieldSelectorRequirement)),
  9: ptr('labelSelector', selectorAttributes('LabelSelectorAttributes', labelSelectorRequirement)),
});
const nonResourceAttributes = message('NonResourceAttributes', { 1: str('path'), 2: str('verb') });

const accessReviewStatus = message('SubjectAccessReviewStatus', {
  1: ptr('allowed', 'bool'),
  2: str('reason'),
  3: str('evaluationError'),
  4: of('denied', 'bool'),
});

const subjectAccessReviewSpec = message('SubjectAccessReviewSpec', {
  1: ptr('resourceAttributes', resourceAttributes),
  2: ptr('nonResourceAttributes', nonResourceAttributes),
  3: str('user'),
  4: strs('groups'),
  5: of('extra', { map: message('ExtraValue', { 1: strs('items') }) }),
  6: str('uid'),
});

const review = (kind: string, spec: MessageSchema, status: MessageSchema): MessageSchema =>
  message(kind, { 1: of('metadata', objectMeta), 2: of('spec', spec), 3: of('status', status) });

const selfSubjectAccessReview = review(
  'SelfSubjectAccessReview',
  message('SelfSubjectAccessReviewSpec', {
    1: ptr('resourceAttributes', resourceAttributes),
    2: ptr('nonResourceAttributes', nonResourceAttributes),
  }),
  accessReviewStatus,
);

const selfSubjectRulesReview = review(
  'SelfSubjectRulesReview',
  message('SelfSubjectRulesReviewSpec', { 1: str('namespace') }),
  message('SubjectRulesReviewStatus', {
    1: list(
      'resourceRules',
      message('ResourceRule', {
        1: strs('verbs'),
        2: strs('apiGroups'),
        3: strs('resources'),
        4: strs('resourceNames'),
      }),
    ),
    2: list(
      'nonResourceRules',
      message('NonResourceRule', { 1: strs('verbs'), 2: strs('nonResourceURLs') }),
    ),
    3: ptr('incomplete', 'bool'),
    4: str('evaluationError'),
  }),
);

export const kindSchemas: Readonly<Record<string, MessageSchema>> = {
  'v1/Namespace': namespace,
  'v1/ConfigMap': configMap,
  'v1/Secret': secret,
  'v1/ServiceAccount': serviceAccount,
  'v1/Service': service,
  'authorization.k8s.io/v1/SelfSubjectAccessReview': selfSubjectAccessReview,
  'authorization.k8s.io/v1/SelfSubjectRulesReview': selfSubjectRulesReview,
  'authorization.k8s.io/v1/SubjectAccessReview': review(
    'SubjectAccessReview',
    subjectAccessReviewSpec,
    accessReviewStatus,
  ),
  'authorization.k8s.io/v1/LocalSubjectAccessReview': review(
    'LocalSubjectAccessReview',
    subjectAccessReviewSpec,
    accessReviewStatus,
  ),
  // A DELETE body: client-go's typed clients send DeleteOptions under either group version.
  'v1/DeleteOptions': deleteOptions,
  'meta.k8s.io/v1/DeleteOptions': deleteOptions,
  'policy/v1/Eviction': eviction,
  'policy/v1/PodDisruptionBudget': podDisruptionBudget,
  'apps/v1/Deployment': deployment,
};
