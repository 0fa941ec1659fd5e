// A cutover and a rollback on the twin (kubeadm-ipvs, real time: speed 1), through the real
// terminal path: the time of each step, and the overhead, i.e. the total minus the pod swap
// itself (the waits for the old pod to go and the new one to be Ready, which the kubelet sets,
// and for the new kube-proxy's first sync, which kube-proxy sets).
// Target: overhead under 5 s. Also the probe pods created (one per node probed, not one per
// command) and the API requests. Prints figures; asserts nothing.
//   npx tsx --conditions=source bench/cutover.ts [--scenario kubeadm-ipvs] [--node blue-1] [--speed 1]
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTwin } from '@proxy-migrate/twin';
import { main } from '../src/cli/program.js';
import type { CliIo } from '../src/cli/types.js';
import type { RunState } from '../src/core/run-state.js';
import { FileRunStore } from '../src/adapters/run-store/file.js';

const arg = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(name);
  return i < 0 ? fallback : (process.argv[i + 1] ?? fallback);
};
const scenario = arg('--scenario', 'kubeadm-ipvs');
const node = arg('--node', 'blue-1');
const speed = Number(arg('--speed', '1'));

const twin = await startTwin({ scenario, speed });
const dir = await mkdtemp(join(tmpdir(), 'pm-bench-cutover-'));
await twin.writeKubeconfig(join(dir, 'kubeconfig'));
await writeFile(
  join(dir, 'clusters.yaml'),
  `clusters:\n  - name: ${twin.name}\n    kubeconfig: ./kubeconfig\n    context: ${twin.name}\n`,
);
const env = {
  PATH: process.env.PATH,
  HOME: dir,
  REDIS_URL: 'redis://127.0.0.1:1',
  PROXY_MIGRATE_STATE_DIR: join(dir, 'runs'),
  CLUSTERS_FILE: join(dir, 'clusters.yaml'),
  LOG_LEVEL: 'error',
};
const quiet = { write: () => true } as unknown as NodeJS.WritableStream;
const io: CliIo = { stdout: quiet, stderr: quiet, env };

const SWAP_STEPS = new Set(['old-pod-gone', 'new-pod-ready', 'revert']);
const ms = (a?: string, b?: string): number =>
  a === undefined || b === undefined ? 0 : Date.parse(b) - Date.parse(a);

async function measure(command: 'cutover' | 'rollback'): Promise<void> {
  twin.stats.reset();
  const started = performance.now();
  const code = await main([command, twin.name, node, '--yes'], io);
  const wall = performance.now() - started;
  const [run] = (await new FileRunStore(join(dir, 'runs')).list()).filter(
    (r: RunState) => r.kind === command,
  );
  if (run === undefined) throw new Error(`no ${command} run`);
  console.log(
    `${command} ${node}: exit ${code}, outcome ${run.outcome ?? '?'}, ${(wall / 1000).toFixed(1)} s wall`,
  );
  let swap = 0;
  for (const s of run.steps.filter((s) => s.status !== 'pending')) {
    const took = ms(s.startedAt, s.endedAt);
    // A revert is mostly waits on pods too; count its time as the swap.
    if (SWAP_STEPS.has(s.id)) swap += took;
    console.log(
      `  ${(s.track === 'rollback' ? `rollback/${s.id}` : s.id).padEnd(22)} ${String(took).padStart(6)} ms${SWAP_STEPS.has(s.id) ? '  (pod swap)' : ''}`,
    );
  }
  // Waiting for kube-proxy's first sync is kube-proxy's time, like the pod swap.
  const firstSync = Object.entries(run.facts)
    .filter(([k]) => k.endsWith('FirstSyncMs'))
    .reduce((n, [, v]) => n + (typeof v === 'number' ? v : 0), 0);
  swap += firstSync;
  const stats = twin.stats.snapshot() as {
    total: number;
    requests: { verb: string; resource: string; count: number }[];
  };
  const probePods = twin.stats
    .writes()
    .filter((w) => w.verb === 'create' && w.resource === 'pods' && !w.dryRun).length;
  const execs = stats.requests
    .filter((r) => r.resource === 'pods/exec')
    .reduce((n, r) => n + r.count, 0);
  console.log(
    `  overhead ${((wall - swap) / 1000).toFixed(1)} s (target < 5 s) = ${(wall / 1000).toFixed(1)} s total − ${(swap / 1000).toFixed(1)} s pod swap (${(firstSync / 1000).toFixed(1)} s of it kube-proxy's first sync); ` +
      `${stats.total} API requests, ${probePods} probe pods, ${execs} exec sessions`,
  );
}

await measure('cutover');
await measure('rollback');
await twin.close();
await rm(dir, { recursive: true, force: true });
