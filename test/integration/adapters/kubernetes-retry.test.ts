// Kubernetes API retries against the twin's injected faults: throttling (429 with Retry-After)
// and 503s no longer fail a read, a terminal pre-flight through them reports what a clean one
// does, and a server that keeps refusing still fails, with the throttling named, in bounded time.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTwin, type Twin } from '@proxy-migrate/twin';
import { KubeCluster } from '../../../src/adapters/kubernetes/cluster-client.js';
import { kubeConfigFor } from '../../../src/adapters/kubernetes/kubeconfig.js';
import { clusterConfig } from '../../../src/config.js';
import { AppError } from '../../../src/errors.js';
import { cliIn } from '../../helpers/cli.js';

describe('Kubernetes API retries', () => {
  let twin: Twin;
  let dir: string;
  let kubeconfig: string;

  beforeAll(async () => {
    twin = await startTwin({ scenario: 'kubeadm-ipvs' });
    dir = await mkdtemp(join(tmpdir(), 'pm-retry-'));
    kubeconfig = join(dir, 'kubeconfig.yaml');
    await twin.writeKubeconfig(kubeconfig);
    await writeFile(
      join(dir, 'clusters.yaml'),
      `clusters:\n  - name: cluster-a\n    kubeconfig: ./kubeconfig.yaml\n    context: ${twin.name}\n`,
    );
  });
  afterAll(async () => {
    await twin.close();
    await rm(dir, { recursive: true, force: true });
  });

  const cluster = () =>
    new KubeCluster(
      'cluster-a',
      kubeConfigFor(clusterConfig({ name: 'cluster-a', kubeconfig, context: twin.name }), []),
      {
        pageSize: 2,
      },
    );

  it('pre-flights through 429 storms and 503s with the same report as a clean run', async () => {
    const cli = cliIn(join(dir, 'runs'), { CLUSTERS_FILE: join(dir, 'clusters.yaml') });
    twin.faults.clear();
    const clean = await cli.run('preflight', 'cluster-a', '--format', 'json', '--fail-on', 'none');
    expect(clean.code, clean.stderr).toBe(0);
    twin.faults.resetCounts();
    twin.faults.replace(
      [
        { kind: 'throttle', rate: 0.2, retryAfterSeconds: 0, verbs: ['list', 'get'] },
        { kind: 'error', status: 503, rate: 0.1, verbs: ['list', 'get'] },
      ],
      'storm',
    );
    const stormy = await cli.run('preflight', 'cluster-a', '--format', 'json', '--fail-on', 'none');
    const injected = twin.faults.injected;
    twin.faults.clear();
    expect(stormy.code, stormy.stderr).toBe(0);
    expect(injected.throttle).toBeGreaterThan(0);
    expect(injected.error).toBeGreaterThan(0);
    const findings = (out: string) =>
      (JSON.parse(out) as { findings: { check: string; severity: string }[] }).findings.map(
        (f) => `${f.check}:${f.severity}`,
      );
    expect(findings(stormy.stdout)).toEqual(findings(clean.stdout));
  }, 120_000);

  it('honours Retry-After on a 429 and fails, naming the throttling, when it never ends', async () => {
    twin.faults.resetCounts();
    twin.faults.replace(
      [{ kind: 'throttle', rate: 1, retryAfterSeconds: 1, verbs: ['get'], resources: ['nodes'] }],
      'wall',
    );
    const started = Date.now();
    const error = await cluster()
      .getNode('blue-1')
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    const took = Date.now() - started;
    const throttled = twin.faults.injected.throttle;
    twin.faults.clear();
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('K8S_THROTTLED');
    // Eight attempts, seven waits of the server's one second each: bounded, and not hammering.
    expect(throttled).toBe(8);
    expect(took).toBeGreaterThanOrEqual(7_000);
    expect(await cluster().getNode('blue-1')).toMatchObject({ metadata: { name: 'blue-1' } });
  }, 30_000);
});
