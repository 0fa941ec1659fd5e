// DeleteOptions as the delete handler reads them: body or query, then ValidateDeleteOptions.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/apimachinery/errors.js';
import { parseDeleteOptions } from '../../../src/server/resources/delete-options.js';

function status(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error.toStatus();
    throw error;
  }
  throw new Error('expected an ApiError');
}

describe('DeleteOptions', () => {
  it('reads the body when there is one, else the query', () => {
    const query = new URLSearchParams('gracePeriodSeconds=3&propagationPolicy=Orphan');
    expect(parseDeleteOptions({ propagationPolicy: 'Foreground' }, query)).toEqual({
      dryRun: false,
      gracePeriodSeconds: undefined,
      expectedRv: undefined,
      expectedUid: undefined,
      propagationPolicy: 'Foreground',
      orphanDependents: undefined,
    });
    expect(parseDeleteOptions(undefined, query)).toMatchObject({
      gracePeriodSeconds: 3,
      propagationPolicy: 'Orphan',
    });
    expect(
      parseDeleteOptions(undefined, new URLSearchParams('orphanDependents=false')),
    ).toMatchObject({ orphanDependents: false });
  });

  it('answers 422 as ValidateDeleteOptions words it', () => {
    expect(
      status(() => parseDeleteOptions({ propagationPolicy: 'Sideways' }, new URLSearchParams())),
    ).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan", "nil"',
      reason: 'Invalid',
      details: {
        name: '',
        group: 'meta.k8s.io',
        kind: 'DeleteOptions',
        causes: [
          {
            reason: 'FieldValueNotSupported',
            message:
              'Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan", "nil"',
            field: 'propagationPolicy',
          },
        ],
      },
      code: 422,
    });
    const both = status(() =>
      parseDeleteOptions(
        { propagationPolicy: 'Orphan', orphanDependents: true },
        new URLSearchParams(),
      ),
    );
    expect((both as { message: string }).message).toBe(
      'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Invalid value: "Orphan": orphanDependents and deletionPropagation cannot be both set',
    );
    const dry = status(() => parseDeleteOptions(undefined, new URLSearchParams('dryRun=Some')));
    expect((dry as { message: string }).message).toBe(
      'DeleteOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{"Some"}: supported values: "All"',
    );
  });
});
