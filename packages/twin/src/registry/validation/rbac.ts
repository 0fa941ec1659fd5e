// Roles, ClusterRoles and their bindings as pkg/apis/rbac/validation/validation.go checks them:
// path-segment names (minimalNameRequirements), rules with verbs and either resources with API
// groups or non-resource URLs (cluster roles only), a binding's roleRef in the rbac group naming
// a Role or ClusterRole, and its subjects. Escalation checks (a user may not grant what it lacks)
// belong to the RBAC authorizer, which the twin does not run: it authorizes every request.

import { fieldError, type FieldError } from '../../apimachinery/field-errors.js';
import { GoValue } from '../../apimachinery/go-value.js';
import type { JsonObject, KubeObject } from '../../apimachinery/types.js';
import { asArray, asRecord, asString, deepEqual } from '../../apimachinery/types.js';
import { nameIsDNSSubdomain, pathSegmentName } from './names.js';
import { validateObjectMeta, validateObjectMetaUpdate } from './object-meta.js';
import { child, index } from './path.js';

const rbacGroup = 'rbac.authorization.k8s.io';

const strings = (v: unknown): string[] => asArray(v).map((s) => asString(s));

/** How field.Error prints a []string: Go's %#v, `[]string{"a", "b"}`. */
const showList = (list: readonly string[]): GoValue =>
  new GoValue(`[]string{${list.map((s) => JSON.stringify(s)).join(', ')}}`);

function validatePolicyRule(rule: JsonObject, namespaced: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (strings(rule['verbs']).length === 0)
    errs.push(fieldError.required(child(path, 'verbs'), 'verbs must contain at least one value'));
  const urls = strings(rule['nonResourceURLs']);
  const groups = strings(rule['apiGroups']);
  const resources = strings(rule['resources']);
  const names = strings(rule['resourceNames']);
  if (urls.length > 0) {
    const at = child(path, 'nonResourceURLs');
    if (namespaced)
      errs.push(
        fieldError.invalid(
          at,
          showList(urls),
          'namespaced rules cannot apply to non-resource URLs',
        ),
      );
    if (groups.length > 0 || resources.length > 0 || names.length > 0)
      errs.push(
        fieldError.invalid(
          at,
          showList(urls),
          'rules cannot apply to both regular resources and non-resource URLs',
        ),
      );
    return errs;
  }
  if (groups.length === 0)
    errs.push(
      fieldError.required(
        child(path, 'apiGroups'),
        'resource rules must supply at least one api group',
      ),
    );
  if (resources.length === 0)
    errs.push(
      fieldError.required(
        child(path, 'resources'),
        'resource rules must supply at least one resource',
      ),
    );
  if (names.length > 0 && resources.length > 1)
    errs.push(
      fieldError.required(
        child(path, 'resourceNames'),
        'resource names cannot apply to multiple resources',
      ),
    );
  return errs;
}

/** ValidateRole / ValidateClusterRole. */
export function validateRole(role: KubeObject, namespaced: boolean): FieldError[] {
  const errs = validateObjectMeta(role.metadata, namespaced, pathSegmentName, 'metadata');
  asArray(role['rules']).forEach((rule, i) =>
    errs.push(...validatePolicyRule(asRecord(rule), namespaced, index('rules', i))),
  );
  return errs;
}

function validateSubject(subject: JsonObject, namespaced: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = asString(subject['name']);
  const group = asString(subject['apiGroup']);
  if (name === '') errs.push(fieldError.required(child(path, 'name')));
  switch (subject['kind']) {
    case 'ServiceAccount':
      // ValidateServiceAccountName is NameIsDNSSubdomain.
      if (name !== '')
        for (const msg of nameIsDNSSubdomain(name, false))
          errs.push(fieldError.invalid(child(path, 'name'), name, msg));
      if (group !== '') errs.push(fieldError.notSupported(child(path, 'apiGroup'), group, ['']));
      if (!namespaced && asString(subject['namespace']) === '')
        errs.push(fieldError.required(child(path, 'namespace')));
      break;
    case 'User':
    case 'Group':
      if (name === '')
        errs.push(
          fieldError.invalid(
            child(path, 'name'),
            name,
            `${subject['kind'] === 'User' ? 'user' : 'group'} name cannot be empty`,
          ),
        );
      if (group !== rbacGroup)
        errs.push(fieldError.notSupported(child(path, 'apiGroup'), group, [rbacGroup]));
      break;
    default:
      errs.push(
        fieldError.notSupported(child(path, 'kind'), asString(subject['kind']), [
          'ServiceAccount',
          'User',
          'Group',
        ]),
      );
  }
  return errs;
}

/** ValidateRoleBinding / ValidateClusterRoleBinding. */
export function validateRoleBinding(binding: KubeObject, namespaced: boolean): FieldError[] {
  const errs = validateObjectMeta(binding.metadata, namespaced, pathSegmentName, 'metadata');
  const ref = asRecord(binding['roleRef']);
  if (ref['apiGroup'] !== rbacGroup)
    errs.push(fieldError.notSupported('roleRef.apiGroup', asString(ref['apiGroup']), [rbacGroup]));
  const kinds = namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole'];
  if (!kinds.includes(asString(ref['kind'])))
    errs.push(fieldError.notSupported('roleRef.kind', asString(ref['kind']), kinds));
  const name = asString(ref['name']);
  if (name === '') errs.push(fieldError.required('roleRef.name'));
  else
    for (const msg of pathSegmentName(name, false))
      errs.push(fieldError.invalid('roleRef.name', name, msg));
  asArray(binding['subjects']).forEach((s, i) =>
    errs.push(...validateSubject(asRecord(s), namespaced, index('subjects', i))),
  );
  return errs;
}

/** ValidateRoleBindingUpdate: the create rules, the metadata rules, and a fixed roleRef. */
export function validateRoleBindingUpdate(
  binding: KubeObject,
  old: KubeObject,
  namespaced: boolean,
): FieldError[] {
  const errs = [
    ...validateRoleBinding(binding, namespaced),
    ...validateObjectMetaUpdate(binding.metadata, old.metadata, 'metadata'),
  ];
  const ref = asRecord(binding['roleRef']);
  if (!deepEqual(ref, asRecord(old['roleRef'])))
    errs.push(
      fieldError.invalid(
        'roleRef',
        new GoValue(
          `rbac.RoleRef{APIGroup:${JSON.stringify(asString(ref['apiGroup']))}, Kind:${JSON.stringify(asString(ref['kind']))}, Name:${JSON.stringify(asString(ref['name']))}}`,
        ),
        'cannot change roleRef',
      ),
    );
  return errs;
}
