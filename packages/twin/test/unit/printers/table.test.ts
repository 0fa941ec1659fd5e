import { describe, expect, it } from 'vitest';
import { nodeRoles, nodeStatus } from '../../../src/printers/core.js';
import { podSummary } from '../../../src/printers/pod.js';
import { resourceFor } from '../../../src/registry/resources.js';
import { toTable } from '../../../src/printers/table.js';
import type { KubeObject } from '../../../src/apimachinery/types.js';

const node = (labels: Record<string, string>, extra: Partial<KubeObject> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name: 'n', labels, creationTimestamp: '2025-01-01T00:00:00Z' },
  status: {
    conditions: [{ type: 'Ready', status: 'True' }],
    nodeInfo: { kubeletVersion: 'v1.33.4' },
  },
  ...extra,
});

describe('node columns', () => {
  it('derives roles as findNodeRoles does', () => {
    expect(
      nodeRoles({ 'node-role.kubernetes.io/control-plane': '', 'node-role.kubernetes.io/': 'x' }),
    ).toBe('control-plane');
    expect(
      nodeRoles({ 'kubernetes.io/role': 'master', 'node-role.kubernetes.io/worker': 'true' }),
    ).toBe('master,worker');
    expect(nodeRoles({})).toBe('<none>');
  });

  it('derives status from the Ready condition and cordoning', () => {
    expect(nodeStatus(node({}))).toBe('Ready');
    expect(nodeStatus(node({}, { spec: { unschedulable: true } }))).toBe(
      'Ready,SchedulingDisabled',
    );
    expect(
      nodeStatus(node({}, { status: { conditions: [{ type: 'Ready', status: 'Unknown' }] } })),
    ).toBe('NotReady');
    expect(nodeStatus(node({}, { status: {} }))).toBe('Unknown');
  });

  it('renders a Table with every cell and PartialObjectMetadata rows', () => {
    const now = Date.parse('2025-01-01T00:05:00Z');
    const table = toTable(resourceFor('nodes'), [node({ pool: 'a' })], {
      include: 'Metadata',
      now,
      resourceVersion: '7',
    });
    const rows = table['rows'] as { cells: unknown[]; object: { kind: string } }[];
    expect(rows[0]!.cells).toEqual([
      'n',
      'Ready',
      '<none>',
      '5m',
      'v1.33.4',
      '<none>',
      '<none>',
      '<unknown>',
      '<unknown>',
      '<unknown>',
    ]);
    expect(rows[0]!.object.kind).toBe('PartialObjectMetadata');
  });
});

describe('pod columns', () => {
  it('reports waiting reasons, restarts and termination', () => {
    const now = Date.parse('2025-01-01T01:00:00Z');
    const pod: KubeObject = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p' },
      spec: { containers: [{ name: 'c' }] },
      status: {
        phase: 'Running',
        containerStatuses: [
          {
            name: 'c',
            ready: false,
            restartCount: 4,
            state: { waiting: { reason: 'CrashLoopBackOff' } },
            lastState: { terminated: { finishedAt: '2025-01-01T00:58:00Z', exitCode: 1 } },
          },
        ],
      },
    };
    expect(podSummary(pod, now)).toEqual({
      ready: 0,
      reason: 'CrashLoopBackOff',
      restarts: '4 (2m ago)',
    });
    const terminating = {
      ...pod,
      metadata: { name: 'p', deletionTimestamp: '2025-01-01T00:59:00Z' },
    };
    expect(podSummary(terminating, now).reason).toBe('Terminating');
  });
});
