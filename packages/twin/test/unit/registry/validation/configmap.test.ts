import { describe, expect, it } from 'vitest';
import { resourceFor } from '../../../../src/registry/resources.js';
import type { KubeObject } from '../../../../src/apimachinery/types.js';
import { invalid, registry } from './fixtures.js';

const configmaps = resourceFor('configmaps');

const cm = (body: Record<string, unknown>): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'c', namespace: 'default' },
  ...body,
});

describe('ConfigMap validation', () => {
  it('checks data and binaryData keys, and a key in both', () => {
    const r = registry();
    const bad = invalid(() =>
      r.create(
        configmaps,
        cm({ data: { 'a b': '1', '..': '2', k: 'x' }, binaryData: { k: 'eA==' } }),
      ),
    );
    expect(bad.causes).toEqual([
      'data[..]: Invalid value: "..": must not be \'..\'',
      "data[a b]: Invalid value: \"a b\": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
      'data[k]: Invalid value: "k": duplicate of key present in binaryData',
    ]);
    expect(
      invalid(() => r.create(configmaps, cm({ data: { ['k'.repeat(254)]: '' } }))).causes[0],
    ).toMatch(/: must be no more than 253 characters$/);
  });

  it('caps the data at 1 MiB over both maps, reported at []', () => {
    const r = registry();
    const half = 'x'.repeat(512 * 1024);
    const over = invalid(() =>
      r.create(
        configmaps,
        cm({ data: { a: half }, binaryData: { b: Buffer.from(half + 'y').toString('base64') } }),
      ),
    );
    expect(over.message).toBe(
      'ConfigMap "c" is invalid: []: Too long: may not be more than 1048576 bytes',
    );
    expect(over.status.details?.causes).toEqual([
      {
        reason: 'FieldValueTooLong',
        message: 'Too long: may not be more than 1048576 bytes',
        field: '[]',
      },
    ]);
    r.create(configmaps, cm({ data: { a: half, b: half } }));
  });

  it('forbids changing or un-setting an immutable ConfigMap', () => {
    const r = registry();
    const created = r.create(configmaps, cm({ data: { a: '1' }, immutable: true }));
    expect(
      invalid(() => r.update(configmaps, { ...created, data: { a: '2' } }, undefined)).causes,
    ).toEqual(['data: Forbidden: field is immutable when `immutable` is set']);
    expect(
      invalid(() => r.update(configmaps, { ...created, immutable: false }, undefined)).causes,
    ).toEqual(['immutable: Forbidden: field is immutable when `immutable` is set']);
    const labelled = { ...created, metadata: { ...created.metadata, labels: { a: 'b' } } };
    expect(r.update(configmaps, labelled, undefined).metadata.labels).toEqual({ a: 'b' });
  });
});
