// The strategy of every served resource, keyed by plural, one file per resource. A resource
// without an entry gets the permissive default: only the registry's generic ObjectMeta rules
// (path-segment names, labels, annotations, finalizers, owner references).

import type { ResourceDef } from '../resources.js';
import type { ResourceStrategy } from '../strategy.js';
import { nameIsDNS1035Label, nameIsDNSLabel, nameIsDNSSubdomain } from '../validation/names.js';
import { admissionPolicyBindingStrategy, admissionPolicyStrategy } from './admission-policy.js';
import { configMapStrategy } from './configmap.js';
import { daemonSetStrategy } from './daemonset.js';
import { metaStrategy } from './generic.js';
import { leaseStrategy } from './lease.js';
import { nodeStrategy } from './node.js';
import { pdbStrategy } from './pdb.js';
import { networkPolicyStrategy } from './network-policy.js';
import { podStrategy } from './pod.js';
import { roleStrategies } from './rbac.js';
import { secretStrategy } from './secret.js';

const builtIn = { namespaced: true, nameFn: nameIsDNSSubdomain, kubeFinalizers: true } as const;

const strategies: Readonly<Record<string, ResourceStrategy>> = {
  namespaces: metaStrategy({ ...builtIn, namespaced: false, nameFn: nameIsDNSLabel }),
  nodes: nodeStrategy,
  pods: podStrategy,
  // ValidateServiceName is NameIsDNS1035Label: a Service name must start with a letter.
  services: metaStrategy({ ...builtIn, nameFn: nameIsDNS1035Label }),
  configmaps: configMapStrategy,
  secrets: secretStrategy,
  serviceaccounts: metaStrategy(builtIn),
  endpointslices: metaStrategy(builtIn),
  daemonsets: daemonSetStrategy,
  // The Deployment strategy resets status on create, as every workload strategy does.
  deployments: metaStrategy(builtIn, { prepareForCreate: (d) => void (d['status'] = {}) }),
  controllerrevisions: metaStrategy(builtIn),
  leases: leaseStrategy,
  poddisruptionbudgets: pdbStrategy,
  networkpolicies: networkPolicyStrategy,
  ...roleStrategies,
  validatingadmissionpolicies: admissionPolicyStrategy,
  validatingadmissionpolicybindings: admissionPolicyBindingStrategy,
  // Custom resources: the generic ObjectMeta rules with DNS-subdomain names, no kube finalizer rule.
  prometheusrules: metaStrategy({ namespaced: true, nameFn: nameIsDNSSubdomain }),
};

const permissive: ResourceStrategy = {};

export function strategyFor(def: ResourceDef): ResourceStrategy {
  return strategies[def.plural] ?? permissive;
}
