// Field numbers of apps/v1 Deployment and the pod template parts `kubectl create deployment`
// fills (image, command, port, replicas), from k8s.io/api's generated.proto (v0.33). Fields not
// listed here are refused when they carry a value (message.ts), never dropped.

import type { MessageSchema } from './message.js';
import { message } from './message.js';
import { labelSelector, list, objectMeta, of, ptr, str, stringMap, strs } from './meta-schemas.js';

const quantityMap = (name: string) => of(name, { map: 'quantity' as const });

const container = message('Container', {
  1: str('name'),
  2: str('image'),
  3: strs('command'),
  4: strs('args'),
  5: str('workingDir'),
  6: list(
    'ports',
    message('ContainerPort', {
      1: str('name'),
      2: of('hostPort', 'int32'),
      3: ptr('containerPort', 'int32'),
      4: str('protocol'),
      5: str('hostIP'),
    }),
  ),
  7: list('env', message('EnvVar', { 1: str('name'), 2: str('value') })),
  8: of(
    'resources',
    message('ResourceRequirements', { 1: quantityMap('limits'), 2: quantityMap('requests') }),
  ),
  13: str('terminationMessagePath'),
  14: str('imagePullPolicy'),
  16: of('stdin', 'bool'),
  17: of('stdinOnce', 'bool'),
  18: of('tty', 'bool'),
  20: str('terminationMessagePolicy'),
});

const podSpec = message('PodSpec', {
  2: list('containers', container),
  3: str('restartPolicy'),
  4: ptr('terminationGracePeriodSeconds', 'int64'),
  6: str('dnsPolicy'),
  7: stringMap('nodeSelector'),
  8: str('serviceAccountName'),
  10: str('nodeName'),
  11: of('hostNetwork', 'bool'),
  19: str('schedulerName'),
  20: list('initContainers', container),
});

export const podTemplateSpec = message('PodTemplateSpec', {
  1: of('metadata', objectMeta),
  2: of('spec', podSpec),
});

export const deployment: MessageSchema = message('Deployment', {
  1: of('metadata', objectMeta),
  2: of(
    'spec',
    message('DeploymentSpec', {
      1: ptr('replicas', 'int32'),
      2: ptr('selector', labelSelector),
      3: of('template', podTemplateSpec),
      4: of(
        'strategy',
        message('DeploymentStrategy', {
          1: str('type'),
          2: ptr(
            'rollingUpdate',
            message('RollingUpdateDeployment', {
              1: ptr('maxUnavailable', 'intOrString'),
              2: ptr('maxSurge', 'intOrString'),
            }),
          ),
        }),
      ),
      5: of('minReadySeconds', 'int32'),
      6: ptr('revisionHistoryLimit', 'int32'),
      7: of('paused', 'bool'),
      9: ptr('progressDeadlineSeconds', 'int32'),
    }),
  ),
  3: of('status', message('DeploymentStatus', {})),
});
