import { describe, expect, it } from 'vitest';
import {
  isConfigMapKey,
  isDNS1123Label,
  isQualifiedName,
  isValidLabelValue,
  nameIsDNSSubdomain,
  pathSegmentName,
} from '../../../../src/registry/validation/names.js';

describe('apimachinery name rules', () => {
  it('words DNS subdomain and label errors as util/validation does', () => {
    expect(nameIsDNSSubdomain('Bad_Name', false)).toEqual([
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    ]);
    expect(isDNS1123Label('a.b')).toEqual(['must not contain dots']);
    expect(isDNS1123Label('x'.repeat(64))).toEqual(['must be no more than 63 characters']);
    // generateName may end in a dash.
    expect(nameIsDNSSubdomain('probe-', true)).toEqual([]);
  });

  it('checks qualified names with their prefix and name parts', () => {
    expect(isQualifiedName('example.com/MyName')).toEqual([]);
    expect(isQualifiedName('/x')).toEqual(['prefix part must be non-empty']);
    expect(isQualifiedName('a/b/c')[0]).toMatch(/^a qualified name must consist of/);
    expect(isQualifiedName('x'.repeat(64))).toEqual([
      'name part must be no more than 63 characters',
    ]);
    expect(isQualifiedName('-x')[0]).toMatch(/^name part must consist of alphanumeric characters/);
  });

  it('checks label values, config keys and path segments', () => {
    expect(isValidLabelValue('')).toEqual([]);
    expect(isValidLabelValue('a b')[0]).toMatch(/^a valid label must be an empty string/);
    expect(isConfigMapKey('..')).toEqual(["must not be '..'"]);
    expect(isDNS1123Label('A')).toEqual([
      "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    ]);
    expect(isConfigMapKey('a b')).toEqual([
      "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
    ]);
    expect(pathSegmentName('a/b', false)).toEqual(["may not contain '/'"]);
    expect(pathSegmentName('..', false)).toEqual(["may not be '..'"]);
  });
});
