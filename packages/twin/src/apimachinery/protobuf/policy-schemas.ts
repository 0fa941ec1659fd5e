// Field numbers of the policy/v1 kinds clients post as protobuf: the Eviction `kubectl drain`
// sends and the PodDisruptionBudget `kubectl create pdb` sends, from k8s.io/api's
// policy/v1/generated.proto (v0.33).

import type { MessageSchema } from './message.js';
import { message } from './message.js';
import {
  condition,
  deleteOptions,
  labelSelector,
  list,
  objectMeta,
  of,
  ptr,
} from './meta-schemas.js';

export const eviction: MessageSchema = message('Eviction', {
  1: of('metadata', objectMeta),
  2: ptr('deleteOptions', deleteOptions),
});

const pdbSpec = message('PodDisruptionBudgetSpec', {
  1: ptr('minAvailable', 'intOrString'),
  2: ptr('selector', labelSelector),
  3: ptr('maxUnavailable', 'intOrString'),
  4: ptr('unhealthyPodEvictionPolicy', 'string'),
});

// The four counters have no omitempty in policy/v1's JSON tags: zero is kept.
const pdbStatus = message('PodDisruptionBudgetStatus', {
  1: of('observedGeneration', 'int64'),
  2: of('disruptedPods', { map: 'time' }),
  3: ptr('disruptionsAllowed', 'int32'),
  4: ptr('currentHealthy', 'int32'),
  5: ptr('desiredHealthy', 'int32'),
  6: ptr('expectedPods', 'int32'),
  7: list('conditions', condition),
});

export const podDisruptionBudget: MessageSchema = message('PodDisruptionBudget', {
  1: of('metadata', objectMeta),
  2: of('spec', pdbSpec),
  3: of('status', pdbStatus),
});
