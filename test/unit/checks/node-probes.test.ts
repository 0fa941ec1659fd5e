import { describe, expect, it } from 'vitest';
import { nodeProbes } from '../../../src/checks/node-probes.js';
import { ctxOf, facts, poolNodes } from '../../fixtures/checks-b.js';

const blue = poolNodes('blue', 3);

describe('node-probes', () => {
  it('blocks, per pool, the nodes whose probes failed: unknown never passes', () => {
    const nodeFacts = [
      facts('blue-1'),
      {
        node: 'blue-2',
        errors: [
          { probe: 'kernel', code: 'K8S_UNREACHABLE', message: 'the API server is unreachable' },
        ],
      },
      {
        node: 'blue-3',
        errors: [
          { probe: 'node', code: 'NODE_PROBE_FAILED', message: 'node is NotReady: not probed' },
        ],
      },
    ];
    const [f, ...rest] = nodeProbes.run(ctxOf({ nodes: blue, nodeFacts }));
    expect(rest).toEqual([]);
    expect(f).toMatchObject({
      check: 'node-probes',
      severity: 'block',
      scope: { kind: 'pool', name: 'blue' },
      subjects: ['blue-2', 'blue-3'],
      title: '2 of 3 nodes (blue-2, blue-3) could not be probed: their host facts are unknown',
    });
    expect(f?.detail).toContain('blue-2: kernel K8S_UNREACHABLE: the API server is unreachable');
    expect(f?.remedy).toContain('cannot be cut over until then');
  });

  it('is quiet when every probed node was read, and when probing was skipped', () => {
    expect(
      nodeProbes.run(ctxOf({ nodes: blue, nodeFacts: blue.map((n) => facts(n.metadata.name)) })),
    ).toEqual([]);
    expect(nodeProbes.run(ctxOf({ nodes: blue, nodeFacts: [] }))).toEqual([]);
  });

  it('reports a missing probe namespace once, for the cluster, with how to create it', () => {
    const message =
      'Cluster c: the probe namespace proxy-migrate-probes does not exist, so no node can be probed.';
    const nodeFacts = blue.map((n) => ({
      node: n.metadata.name,
      errors: [{ probe: 'kernel', code: 'PROBE_NAMESPACE_MISSING', message }],
    }));
    const findings = nodeProbes.run(ctxOf({ nodes: blue, nodeFacts }));
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({
      severity: 'block',
      scope: { kind: 'cluster' },
      subjects: ['blue-1', 'blue-2', 'blue-3'],
      title: 'The probe namespace does not exist: 3 nodes could not be probed',
      commands: ['kubectl apply -f deploy/install.yaml'],
    });
    expect(findings[0]?.detail).toContain(message);
    expect(findings[0]?.remedy).toContain('proxy-migrate connect');
  });
});
