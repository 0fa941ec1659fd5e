import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../src/apimachinery/errors.js';
import type { KubeObject } from '../../../../src/apimachinery/types.js';
import { answerReview } from '../../../../src/server/authorization/access-reviews.js';

const review = (kind: string, spec: Record<string, unknown>, namespace?: string): KubeObject =>
  ({
    apiVersion: 'authorization.k8s.io/v1',
    kind,
    metadata: namespace === undefined ? {} : { namespace },
    spec,
  }) as KubeObject;

function failure(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('no error');
}

describe('access reviews in AlwaysAllow mode', () => {
  it('allows every self-subject access review with the real response shape', () => {
    const spec = {
      resourceAttributes: { namespace: 'kube-system', verb: 'create', resource: 'leases' },
    };
    expect(answerReview(review('SelfSubjectAccessReview', spec))).toEqual({
      kind: 'SelfSubjectAccessReview',
      apiVersion: 'authorization.k8s.io/v1',
      metadata: { creationTimestamp: null },
      spec,
      status: { allowed: true },
    });
  });

  it('lists the AlwaysAllow rules and needs a namespace', () => {
    expect(answerReview(review('SelfSubjectRulesReview', { namespace: 'default' }))).toEqual({
      kind: 'SelfSubjectRulesReview',
      apiVersion: 'authorization.k8s.io/v1',
      metadata: { creationTimestamp: null },
      spec: {},
      status: {
        resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
        nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
        incomplete: false,
      },
    });
    const e = failure(() => answerReview(review('SelfSubjectRulesReview', {})));
    expect([e.code, e.message]).toEqual([400, 'no namespace on request']);
  });

  it('validates specs as pkg/apis/authorization/validation does', () => {
    expect(failure(() => answerReview(review('SelfSubjectAccessReview', {}))).message).toBe(
      'SelfSubjectAccessReview.authorization.k8s.io "" is invalid: spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified',
    );
    const sar = failure(() =>
      answerReview(
        review('SubjectAccessReview', { nonResourceAttributes: { path: '/x', verb: 'get' } }),
      ),
    );
    expect(sar.message).toBe(
      'SubjectAccessReview.authorization.k8s.io "" is invalid: spec.user: Invalid value: "": at least one of user or group must be specified',
    );
    const local = failure(() =>
      answerReview(
        review(
          'LocalSubjectAccessReview',
          { user: 'u', resourceAttributes: { namespace: 'b' } },
          'a',
        ),
      ),
    );
    expect(local.message).toBe(
      'LocalSubjectAccessReview.authorization.k8s.io "" is invalid: spec.resourceAttributes.namespace: Invalid value: "b": must match metadata.namespace',
    );
  });
});
