import { describe, expect, it } from 'vitest';
import { resourceFor } from '../../../../src/registry/resources.js';
import type { KubeObject } from '../../../../src/apimachinery/types.js';
import { invalid, pod, registry } from './fixtures.js';

const pods = resourceFor('pods');

function withSpec(p: KubeObject, change: (spec: Record<string, unknown>) => void): KubeObject {
  const next = structuredClone(p);
  change(next['spec'] as Record<string, unknown>);
  return next;
}

describe('Pod validation', () => {
  it('requires containers with DNS-label names, unique, with images', () => {
    const r = registry();
    expect(invalid(() => r.create(pods, pod({ containers: [] }))).causes).toEqual([
      'spec.containers: Required value',
    ]);
    const bad = invalid(() =>
      r.create(
        pods,
        pod({ containers: [{ name: 'A', image: 'x' }, { name: 'b' }, { name: 'b', image: 'y' }] }),
      ),
    );
    expect(bad.causes[0]).toMatch(
      /^spec.containers\[0\].name: Invalid value: "A": a lowercase RFC 1123 label/,
    );
    expect(bad.causes.slice(1)).toEqual([
      'spec.containers[1].image: Required value',
      'spec.containers[2].name: Duplicate value: "b"',
    ]);
  });

  it('checks restartPolicy, dnsPolicy, ports and volume mounts', () => {
    const r = registry();
    const bad = invalid(() =>
      r.create(
        pods,
        pod({
          restartPolicy: 'Sometimes',
          dnsPolicy: 'Cluster',
          volumes: [
            { name: 'cfg', configMap: { name: 'c' } },
            { name: 'cfg', emptyDir: {} },
            { name: 'none' },
          ],
          containers: [
            {
              name: 'c',
              image: 'x',
              ports: [{ containerPort: 70000, protocol: 'TCP' }],
              volumeMounts: [{ name: 'missing', mountPath: '/m' }],
            },
          ],
        }),
      ),
    );
    expect(bad.causes).toEqual([
      'spec.volumes[1].name: Duplicate value: "cfg"',
      'spec.volumes[2]: Required value: must specify a volume type',
      'spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
      'spec.containers[0].volumeMounts[0].name: Not found: "missing"',
      'spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
      'spec.dnsPolicy: Unsupported value: "Cluster": supported values: "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"',
    ]);
  });

  it('defaults hostPort for host-network pods and rejects a different one', () => {
    const r = registry();
    const created = r.create(
      pods,
      pod({
        hostNetwork: true,
        containers: [{ name: 'c', image: 'x', ports: [{ containerPort: 80 }] }],
      }),
    );
    expect(
      (created['spec'] as { containers: { ports: unknown[] }[] }).containers[0]!.ports[0],
    ).toMatchObject({ hostPort: 80 });
    expect(
      invalid(() =>
        r.create(
          pods,
          pod(
            {
              hostNetwork: true,
              containers: [{ name: 'c', image: 'x', ports: [{ containerPort: 80, hostPort: 81 }] }],
            },
            'q',
          ),
        ),
      ).causes,
    ).toEqual([
      'spec.containers[0].ports[0].hostPort: Invalid value: 81: must match `containerPort` when `hostNetwork` is true',
    ]);
  });

  it('lets an update change images, activeDeadlineSeconds and add tolerations only', () => {
    const r = registry();
    const created = r.create(pods, pod());
    const image = r.update(
      pods,
      withSpec(created, (s) => {
        (s['containers'] as { image: string }[])[0]!.image = 'busybox:1.37';
        s['activeDeadlineSeconds'] = 30;
        s['tolerations'] = [{ key: 'k', operator: 'Exists', effect: 'NoSchedule' }];
      }),
      undefined,
    );
    expect((image['spec'] as { containers: { image: string }[] }).containers[0]!.image).toBe(
      'busybox:1.37',
    );
    const bad = invalid(() =>
      r.update(
        pods,
        withSpec(image, (s) => (s['dnsPolicy'] = 'Default')),
        undefined,
      ),
    );
    expect(bad.causes).toHaveLength(1);
    expect(bad.causes[0]).toMatch(
      /^spec: Forbidden: pod updates may not change fields other than `spec.containers\[\*\].image`,`spec.initContainers\[\*\].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` \(only additions to existing tolerations\),`spec.terminationGracePeriodSeconds` \(allow it to be set to 1 if it was previously negative\)\n/,
    );
    expect(bad.causes[0]).toContain('dnsPolicy: "ClusterFirst"');
    expect(
      invalid(() =>
        r.update(
          pods,
          withSpec(image, (s) => (s['tolerations'] = [])),
          undefined,
        ),
      ).causes,
    ).toEqual([
      'spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds',
    ]);
    expect(
      invalid(() =>
        r.update(
          pods,
          withSpec(image, (s) => (s['activeDeadlineSeconds'] = 60)),
          undefined,
        ),
      ).causes,
    ).toEqual([
      'spec.activeDeadlineSeconds: Invalid value: 60: must be less than or equal to previous value',
    ]);
    expect(
      invalid(() =>
        r.update(
          pods,
          withSpec(image, (s) => (s['containers'] = [])),
          undefined,
        ),
      ).causes,
    ).toContain('spec.containers: Forbidden: pod updates may not add or remove containers');
  });

  it('binds through the binding path, which the update rules do not apply to', () => {
    const r = registry();
    r.create(pods, pod());
    expect((r.bind('default', 'p', 'n1')['spec'] as { nodeName: string }).nodeName).toBe('n1');
    expect(() => r.bind('default', 'p', 'n1')).toThrow('pod p is already assigned to node "n1"');
  });

  it('validates tolerations', () => {
    const r = registry();
    expect(
      invalid(() =>
        r.create(
          pods,
          pod({
            tolerations: [
              { operator: 'Equal', value: 'x' },
              { key: 'k', operator: 'Exists', value: 'v', effect: 'Never' },
            ],
          }),
        ),
      ).causes,
    ).toEqual([
      'spec.tolerations[0].operator: Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"',
      'spec.tolerations[1].operator: Invalid value: "v": value must be empty when `operator` is \'Exists\'',
      'spec.tolerations[1].effect: Unsupported value: "Never": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
    ]);
  });
});
