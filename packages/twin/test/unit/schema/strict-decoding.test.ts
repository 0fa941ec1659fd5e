import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../../src/apimachinery/types.js';
import { loadScenario } from '../../../src/scenario/scenario.js';
import { scanJson } from '../../../src/apimachinery/json-scan.js';
import { kindSchema, rootNode } from '../../../src/schema/index.js';
import { pruneUnknown, strictDecode } from '../../../src/schema/strict-decoding.js';
import { yamlDuplicateKeys, yamlWarnings } from '../../../src/server/resources/body.js';

const ds = rootNode('apps/v1', 'DaemonSet');
const scenarios = join(import.meta.dirname, '../../../scenarios');

describe('strict decoding against the schema', () => {
  it('reports unknown and duplicate fields with sigs.k8s.io/json paths, in document order', () => {
    const text = JSON.stringify({
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'x', labels: { a: '1' } },
      spec: {
        bogus: 1,
        template: { spec: { containers: [{ name: 'c', image: 'i', imagePulPolicy: 'Always' }] } },
      },
    }).replace('"labels":{"a":"1"}', '"labels":{"a":"1","a":"2"}');
    const { value, errors } = strictDecode(scanJson(text), ds);
    expect(errors).toEqual([
      'duplicate field "metadata.labels.a"',
      'unknown field "spec.bogus"',
      'unknown field "spec.template.spec.containers[0].imagePulPolicy"',
    ]);
    expect(value).toEqual({
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'x', labels: { a: '2' } },
      spec: { template: { spec: { containers: [{ name: 'c', image: 'i' }] } } },
    });
  });

  it('reports an unknown field once, and nothing inside it or inside a RawExtension', () => {
    const text =
      '{"kind":"ControllerRevision","x":{"y":1},"x":{"z":2},"data":{"any":{"thing":1}},"revision":1}';
    const { value, errors } = strictDecode(
      scanJson(text),
      rootNode('apps/v1', 'ControllerRevision'),
    );
    expect(errors).toEqual(['unknown field "x"']);
    expect(value).toEqual({ kind: 'ControllerRevision', data: { any: { thing: 1 } }, revision: 1 });
  });

  it('prunes a custom resource by its structural schema', () => {
    const rule = {
      apiVersion: 'monitoring.coreos.com/v1',
      kind: 'PrometheusRule',
      metadata: { name: 'r' },
      spec: { groups: [{ name: 'g', rules: [{ alert: 'A', expr: 1, severity: 'x' }] }] },
      status: {},
    };
    const schema = kindSchema('monitoring.coreos.com/v1', 'PrometheusRule');
    expect(schema?.custom).toBe(true);
    expect(pruneUnknown(rule, schema?.root).errors).toEqual([
      'unknown field "spec.groups[0].rules[0].severity"',
      'unknown field "status"',
    ]);
  });

  it('accepts everything of a kind without a schema', () => {
    expect(pruneUnknown({ anything: { goes: [1] } }, undefined).errors).toEqual([]);
  });

  it('knows every field the shipped scenarios use', async () => {
    const names = readdirSync(scenarios).filter(
      (f) => f.endsWith('.yaml') && f !== 'large-generated.yaml',
    );
    expect(names.length).toBeGreaterThan(5);
    for (const name of names) {
      const { objects } = await loadScenario(join(scenarios, name));
      const unknown = objects.flatMap((o) =>
        pruneUnknown(o as unknown as JsonValue, rootNode(o.apiVersion, o.kind)).errors.map(
          (e) => `${name} ${o.kind}/${o.metadata.name ?? ''}: ${e}`,
        ),
      );
      expect(unknown).toEqual([]);
    }
  });
});

describe('YAML strictness', () => {
  it('reports duplicate keys as yaml.v2 does, one warning per line', () => {
    const text = 'apiVersion: v1\nkind: ConfigMap\ndata:\n  a: "1"\n  a: "2"\nkind: ConfigMap\n';
    const error = yamlDuplicateKeys(text);
    expect(error).toBe(
      'error converting YAML to JSON: yaml: unmarshal errors:\n  line 5: key "a" already set in map\n  line 6: key "kind" already set in map',
    );
    expect(yamlWarnings(error ?? '')).toEqual([
      'line 5: key "a" already set in map',
      'line 6: key "kind" already set in map',
    ]);
    expect(yamlDuplicateKeys('a: 1\nb: 2\n')).toBeUndefined();
  });
});
