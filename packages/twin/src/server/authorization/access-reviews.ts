// authorization.k8s.io/v1 reviews, answered as an apiserver in AlwaysAllow mode would (the twin
// has no authorization): create-only, never stored, answered 201 with the review and its status.
// Shapes from pkg/registry/authorization/*/rest.go and pkg/apis/authorization/validation; the
// rules of AlwaysAllow's RulesFor (apiserver/pkg/authorization/authorizerfactory/builtin.go).

import type { IncomingMessage, ServerResponse } from 'node:http';
import { badRequest, methodNotAllowed, pageNotFound } from '../../apimachinery/errors.js';
import type { FieldError } from '../../apimachinery/field-errors.js';
import { fieldError, invalidObject } from '../../apimachinery/field-errors.js';
import type { JsonObject, KubeObject } from '../../apimachinery/types.js';
import { asRecord, isJsonObject } from '../../apimachinery/types.js';
import { readBodyBytes, sendJson } from '../http-util.js';
import { decodeRequestBody } from '../resources/body.js';
import { objectFromBody } from '../resources/write.js';
import { Warnings, writeQuery } from '../resources/write-options.js';
import type { ResourceTarget } from '../routes.js';

const group = 'authorization.k8s.io';

export function isAccessReview(t: Pick<ResourceTarget, 'def'>): boolean {
  return t.def.group === group;
}

/** How field.Error prints a *NonResourceAttributes (a struct: Go's %#v). */
function showNonResource(value: unknown): string {
  const v = asRecord(value);
  return `authorization.NonResourceAttributes{Path:${JSON.stringify(v['path'] ?? '')}, Verb:${JSON.stringify(v['verb'] ?? '')}}`;
}

/** ValidateSelfSubjectAccessReviewSpec / ValidateSubjectAccessReviewSpec. */
function validateSpec(spec: JsonObject, withUser: boolean): FieldError[] {
  const errors: FieldError[] = [];
  const resource = spec['resourceAttributes'];
  const nonResource = spec['nonResourceAttributes'];
  const invalid = (field: string, shown: string, detail: string): FieldError => ({
    type: 'FieldValueInvalid',
    field,
    body: `Invalid value: ${shown}: ${detail}`,
  });
  if (isJsonObject(resource) && isJsonObject(nonResource)) {
    errors.push(
      invalid(
        'spec.nonResourceAttributes',
        showNonResource(nonResource),
        'cannot be specified in combination with resourceAttributes',
      ),
    );
  }
  if (!isJsonObject(resource) && !isJsonObject(nonResource)) {
    errors.push(
      invalid(
        'spec.resourceAttributes',
        '"null"',
        'exactly one of nonResourceAttributes or resourceAttributes must be specified',
      ),
    );
  }
  const groups = spec['groups'];
  const noGroups = !Array.isArray(groups) || groups.length === 0;
  if (withUser && (spec['user'] ?? '') === '' && noGroups)
    errors.push(
      fieldError.invalid('spec.user', '', 'at least one of user or group must be specified'),
    );
  return errors;
}

function reviewStatus(review: KubeObject): JsonObject {
  const spec = asRecord(review['spec']);
  const errors = validateSpec(spec, review.kind !== 'SelfSubjectAccessReview');
  if (review.kind === 'LocalSubjectAccessReview') {
    const attrs = spec['resourceAttributes'];
    const namespace = review.metadata.namespace ?? '';
    if (isJsonObject(attrs) && (attrs['namespace'] ?? '') !== namespace) {
      errors.push(
        fieldError.invalid(
          'spec.resourceAttributes.namespace',
          attrs['namespace'] ?? '',
          'must match metadata.namespace',
        ),
      );
    }
    if (isJsonObject(spec['nonResourceAttributes'])) {
      errors.push({
        type: 'FieldValueInvalid',
        field: 'spec.nonResourceAttributes',
        body: `Invalid value: ${showNonResource(spec['nonResourceAttributes'])}: disallowed on this kind of request`,
      });
    }
  }
  if (errors.length > 0) throw invalidObject(review.kind, group, '', errors);
  // AlwaysAllow decides DecisionAllow with no reason.
  return { allowed: true };
}

/** The rules AlwaysAllow's RulesFor returns for any user and namespace. */
const alwaysAllowRules: JsonObject = {
  resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
  nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
  incomplete: false,
};

/** The review's answer: the 201 body an AlwaysAllow apiserver returns, or its 400/422. */
export function answerReview(review: KubeObject): JsonObject {
  // Never persisted, so ObjectMeta stays empty; Go prints its zero creationTimestamp as null.
  const metadata: JsonObject = { creationTimestamp: null };
  if (review.metadata.namespace !== undefined) metadata['namespace'] = review.metadata.namespace;
  let answer: JsonObject;
  if (review.kind === 'SelfSubjectRulesReview') {
    if ((asRecord(review['spec'])['namespace'] ?? '') === '')
      throw badRequest('no namespace on request');
    // The REST returns a fresh review: the spec is not echoed back.
    answer = { spec: {}, status: alwaysAllowRules };
  } else {
    answer = { spec: asRecord(review['spec']), status: reviewStatus(review) };
  }
  return { kind: review.kind, apiVersion: review.apiVersion, metadata, ...answer };
}

export async function handleAccessReview(
  req: IncomingMessage,
  res: ServerResponse,
  query: URLSearchParams,
  t: ResourceTarget,
): Promise<void> {
  if (t.name !== undefined || t.subresource !== undefined) throw pageNotFound();
  if (req.method !== 'POST')
    throw methodNotAllowed('the server does not allow this method on the requested resource');
  // The generic create handler decodes them, so CreateOptions and fieldValidation apply.
  const options = writeQuery(query, 'CreateOptions');
  const warnings = new Warnings();
  const body = decodeRequestBody(
    await readBodyBytes(req),
    req.headers['content-type'] ?? '',
    t,
    options.validation,
    warnings,
  );
  const answer = answerReview(objectFromBody(body, t));
  sendJson(res, 201, answer, 'application/json', warnings.headers());
}
