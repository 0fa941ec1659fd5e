import { describe, expect, it } from 'vitest';
import { resourceFor } from '../../../../src/registry/resources.js';
import type { KubeObject } from '../../../../src/apimachinery/types.js';
import { daemonSet, invalid, registry } from './fixtures.js';

const daemonsets = resourceFor('daemonsets');
const annotation = 'deprecated.daemonset.template.generation';

function withTemplate(ds: KubeObject, image: string): KubeObject {
  const spec = ds['spec'] as { template: { spec: { containers: { image: string }[] } } };
  const next = structuredClone(ds);
  const template = structuredClone(spec.template);
  template.spec.containers[0]!.image = image;
  (next['spec'] as Record<string, unknown>)['template'] = template;
  return next;
}

describe('DaemonSet strategy', () => {
  it('resets status, sets generation 1 and template generation 1 on create', () => {
    const r = registry();
    const created = r.create(daemonsets, { ...daemonSet(), status: { numberReady: 5 } });
    expect(created['status']).toEqual({});
    expect(created.metadata.generation).toBe(1);
    expect(created.metadata.annotations?.[annotation]).toBe('1');
  });

  it('bumps generation on spec changes and the template generation only on template changes', () => {
    const r = registry();
    const created = r.create(daemonsets, daemonSet());
    const spec = { ...(created['spec'] as Record<string, unknown>), minReadySeconds: 5 };
    const specOnly = r.update(daemonsets, { ...created, spec }, undefined);
    expect(specOnly.metadata.generation).toBe(2);
    expect(specOnly.metadata.annotations?.[annotation]).toBe('1');
    const template = r.update(daemonsets, withTemplate(specOnly, 'agent:2'), undefined);
    expect(template.metadata.generation).toBe(3);
    expect(template.metadata.annotations?.[annotation]).toBe('2');
    // A client cannot set it: dropping or changing the annotation keeps the stored value.
    const meta = { ...template.metadata, annotations: { [annotation]: '40' } };
    expect(
      r.update(daemonsets, { ...template, metadata: meta }, undefined).metadata.annotations?.[
        annotation
      ],
    ).toBe('2');
  });

  it('rejects a selector that does not match the template labels, with the Go rendering', () => {
    const r = registry();
    const ds = daemonSet({ selector: { matchLabels: { app: 'other' } } });
    expect(invalid(() => r.create(daemonsets, ds)).message).toBe(
      'DaemonSet.apps "agent" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"agent"}: `selector` does not match template `labels`',
    );
    const none = daemonSet();
    delete (none['spec'] as Record<string, unknown>)['selector'];
    expect(invalid(() => r.create(daemonsets, none)).causes).toEqual([
      'spec.template.metadata.labels: Invalid value: map[string]string{"app":"agent"}: `selector` does not match template `labels`',
    ]);
    expect(invalid(() => r.create(daemonsets, daemonSet({ selector: {} }))).causes).toEqual([
      'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for daemonset',
    ]);
  });

  it('keeps the selector immutable', () => {
    const r = registry();
    const created = r.create(daemonsets, daemonSet());
    const changed = structuredClone(created);
    const spec = changed['spec'] as Record<string, unknown>;
    spec['selector'] = { matchLabels: { app: 'agent', tier: 'x' } };
    (spec['template'] as { metadata: { labels: Record<string, string> } }).metadata.labels['tier'] =
      'x';
    expect(invalid(() => r.update(daemonsets, changed, undefined)).causes).toEqual([
      'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"agent", "tier":"x"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable',
    ]);
  });

  it('checks the template: containers, restartPolicy Always, no activeDeadlineSeconds', () => {
    const r = registry();
    const ds = daemonSet();
    const template = (ds['spec'] as { template: { spec: Record<string, unknown> } }).template;
    template.spec = { containers: [], restartPolicy: 'Never', activeDeadlineSeconds: 5 };
    expect(invalid(() => r.create(daemonsets, ds)).causes).toEqual([
      'spec.template.spec.containers: Required value',
      'spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"',
      'spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in DaemonSet is not Supported',
    ]);
  });

  it('checks updateStrategy, maxUnavailable and maxSurge as ValidateRollingUpdateDaemonSet does', () => {
    const r = registry();
    const rolling = (ru: Record<string, unknown>) =>
      daemonSet({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: ru } });
    expect(
      invalid(() => r.create(daemonsets, rolling({ maxUnavailable: 0, maxSurge: 0 }))).causes,
    ).toEqual([
      'spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0',
    ]);
    expect(
      invalid(() => r.create(daemonsets, rolling({ maxUnavailable: 1, maxSurge: '10%' }))).causes,
    ).toEqual([
      'spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"10%"}: may not be set when maxUnavailable is non-zero',
    ]);
    expect(
      invalid(() => r.create(daemonsets, rolling({ maxUnavailable: '150%', maxSurge: 0 }))).causes,
    ).toEqual([
      'spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"150%"}: must not be greater than 100%',
    ]);
    expect(
      invalid(() => r.create(daemonsets, rolling({ maxUnavailable: -1, maxSurge: 0 }))).causes[0],
    ).toBe(
      'spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: -1: must be greater than or equal to 0',
    );
    expect(
      invalid(() => r.create(daemonsets, rolling({ maxUnavailable: 'x', maxSurge: 0 }))).causes[0],
    ).toMatch(
      /^spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString\{Type:1, IntVal:0, StrVal:"x"\}: a valid percent string must be/,
    );
    r.create(daemonsets, rolling({ maxUnavailable: 0, maxSurge: '25%' }));
    expect(
      invalid(() => r.create(daemonsets, daemonSet({ updateStrategy: { type: 'Sometimes' } })))
        .causes,
    ).toEqual([
      'spec.updateStrategy: Unsupported value: apps.DaemonSetUpdateStrategy{Type:"Sometimes", RollingUpdate:(*apps.RollingUpdateDaemonSet)(nil)}: supported values: "RollingUpdate", "OnDelete"',
    ]);
  });

  it('defaults a bare RollingUpdate to maxUnavailable 1 and maxSurge 0', () => {
    const r = registry();
    const created = r.create(daemonsets, daemonSet({ updateStrategy: { type: 'RollingUpdate' } }));
    expect((created['spec'] as Record<string, unknown>)['updateStrategy']).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { maxUnavailable: 1, maxSurge: 0 },
    });
  });

  it('checks revisionHistoryLimit and minReadySeconds are not negative', () => {
    const r = registry();
    expect(
      invalid(() =>
        r.create(daemonsets, daemonSet({ revisionHistoryLimit: -1, minReadySeconds: -2 })),
      ).causes,
    ).toEqual([
      'spec.minReadySeconds: Invalid value: -2: must be greater than or equal to 0',
      'spec.revisionHistoryLimit: Invalid value: -1: must be greater than or equal to 0',
    ]);
  });

  it('validates status writes with the status strategy and keeps spec', () => {
    const r = registry();
    const created = r.create(daemonsets, daemonSet());
    expect(
      invalid(() =>
        r.update(daemonsets, { ...created, status: { numberReady: -1 } }, undefined, {
          subresource: 'status',
        }),
      ).causes,
    ).toEqual(['status.numberReady: Invalid value: -1: must be greater than or equal to 0']);
    const written = r.update(
      daemonsets,
      { ...created, spec: {}, status: { numberReady: 1 } },
      undefined,
      {
        subresource: 'status',
      },
    );
    expect(written['spec']).toEqual(created['spec']);
  });
});
