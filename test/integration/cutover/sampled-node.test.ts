// Sampling never lets a blocked node through: a fleet pre-flight with `--probe sample` leaves a
// node unprobed whose host booted an older kernel than its Node object says (so the Node object
// looks like its pool's), and the cutover of that node still refuses it, because the node
// pre-flight probes the node it moves in full, whatever the fleet report sampled.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTwin, type Twin } from '@proxy-migrate/twin';
import type { PreflightReport } from '../../../src/core/report.js';
import type { RunResultJson } from '../../../src/views/run-result.js';
import { cliIn } from '../../helpers/cli.js';

let twin: Twin;
let dir: string;
let cli: ReturnType<typeof cliIn>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pm-sampled-'));
  // The large scenario's pools, a few nodes each: big enough for a sample to leave nodes out.
  const large = await readFile(
    join(import.meta.dirname, '../../../packages/twin/scenarios/large-generated.yaml'),
    'utf8',
  );
  const small = large
    .replace('name: large-generated', 'name: sampled')
    .replace('count: 2000', 'count: 6')
    .replace('count: 2500', 'count: 6')
    .replace('count: 500', 'count: 2')
    .replace('services: { count: 20000, namespaces: 40', 'services: { count: 40, namespaces: 2');
  await writeFile(join(dir, 'sampled.yaml'), small);
  twin = await startTwin({ scenario: join(dir, 'sampled.yaml'), speed: 10 });
  const kubeconfig = join(dir, 'kubeconfig');
  await twin.writeKubeconfig(kubeconfig);
  await writeFile(
    join(dir, 'clusters.yaml'),
    `clusters:\n  - name: sampled\n    kubeconfig: ./kubeconfig\n    context: ${twin.name}\n`,
  );
  cli = cliIn(join(dir, 'runs'), { CLUSTERS_FILE: join(dir, 'clusters.yaml') });
});

afterAll(async () => {
  await twin.close();
  await rm(dir, { recursive: true, force: true });
});

const fleetReport = async (): Promise<PreflightReport> => {
  const got = await cli.run('preflight', 'sampled', '--probe', 'sample', '-o', 'json');
  expect([0, 2, 3], got.stderr).toContain(got.code);
  return JSON.parse(got.stdout) as PreflightReport;
};

describe('a node the fleet sample left out', () => {
  it('is unknown in the fleet report, and probed in full (and refused) by its cutover', async () => {
    const first = await fleetReport();
    const probed = new Set(first.hosts.map((h) => h.node));
    // Pools by OS and kernel line (no pool label configured): pool-b's nodes run 6.8.
    const poolB = first.pools.find((p) => p.nodes.includes('pool-b-1'));
    const node = poolB?.nodes.find((n) => !probed.has(n));
    expect(node, 'the sample leaves a pool-b node out').toBeDefined();
    const trap = node ?? '';

    // The host reboots into an old kernel; its Node object keeps reporting the pool's 6.8.
    const put = await fetch(`${twin.url}/twin/hosts/${trap}/faults`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ faults: ['kernel-reboot-rollback'] }),
    });
    expect(put.status).toBe(200);

    const fleet = await fleetReport();
    expect(fleet.probing.mode).toBe('sample');
    expect(fleet.hosts.map((h) => h.node)).not.toContain(trap);
    expect(fleet.complete).toBe(false);
    // The sample did not see it: no blocker names the node...
    const blocks = fleet.findings.filter((f) => f.severity === 'block');
    expect(blocks.some((f) => f.subjects.includes(trap) || f.scope.name === trap)).toBe(false);
    // ...and the report says its pool was not read in full, which is not a pass.
    expect(fleet.findings).toContainEqual(
      expect.objectContaining({
        check: 'node-probes',
        severity: 'warn',
        scope: { kind: 'pool', name: poolB?.name },
      }),
    );

    twin.stats.reset();
    const cutover = await cli.run('cutover', 'sampled', trap, '--yes', '--format', 'json');
    expect(cutover.code, cutover.stderr).toBe(2);
    const result = JSON.parse(cutover.stdout) as RunResultJson;
    expect(result.outcome).toBe('refused');
    expect(result.reason).toMatch(new RegExp(`kernel-version: .*${trap}.* on kernel 5\\.4`));
    // Nothing but the node pre-flight's probe pod and its exec sessions was written.
    const writes = twin.stats.writes().filter((w) => !w.dryRun);
    expect(writes.every((w) => w.resource === 'pods' || w.resource === 'pods/exec')).toBe(true);
    expect(writes.some((w) => w.verb === 'create' && w.resource === 'pods')).toBe(true);
  });
});
