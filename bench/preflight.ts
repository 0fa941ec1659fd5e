// The fleet pre-flight at scale, in two processes as an operator runs it: the twin's generated
// 5,000-node / 20,000-Service cluster served by `proxy-migrate twin`, and the bot's own
// `proxy-migrate preflight -o json` built as shipped (tsc to dist/, run with plain node, so its
// memory is the product's and not a TypeScript loader's). Prints wall time, API requests (counted
// by the twin), probe pods created and each process's peak RSS (VmHWM), beside the goals. The
// bot runs twice: with the NODE_OPTIONS its Deployment sets (the figure the goal is about) and as
// a terminal runs it, without. Asserts nothing: speed targets are figures, not tests.
//   npx tsx --conditions=source bench/preflight.ts [--probe all|sample|none] [--concurrency N]
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parse } from 'yaml';
import type { PreflightReport } from '../src/core/report.js';
import { shippedNodeFlags } from './shipped-node.js';

const GOAL_WALL_S = 60;
const GOAL_BOT_RSS_MIB = 300;

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i < 0 ? undefined : process.argv[i + 1];
};
const mode = arg('--probe');
const concurrency = arg('--concurrency');
const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
const pad = (label: string): string => label.padEnd(20);
const root = join(import.meta.dirname, '..');

/** Peak RSS (VmHWM) of a live process, from /proc; 0 once it is gone. */
async function peakRssOf(pid: number | undefined): Promise<number> {
  const status = await readFile(`/proc/${pid ?? 0}/status`, 'utf8').catch(() => '');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}

/** Samples a child's peak RSS until it exits (VmHWM only grows, so the last read is the peak). */
function watchPeak(child: ChildProcess): () => number {
  let peak = 0;
  const timer = setInterval(() => {
    void peakRssOf(child.pid).then((rss) => (peak = Math.max(peak, rss)));
  }, 50);
  child.once('exit', () => clearInterval(timer));
  return () => peak;
}

// The bot as shipped: compiled once (the twin package first, as `npm run build` does, since
// dist/main.js imports its dist), run by plain node.
for (const project of ['packages/twin/tsconfig.build.json', 'tsconfig.build.json'])
  execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', project], {
    cwd: root,
    stdio: 'inherit',
  });

const dir = await mkdtemp(join(tmpdir(), 'pm-bench-'));
const kubeconfig = join(dir, 'kubeconfig.yaml');
const twin = spawn(
  process.execPath,
  [join(root, 'dist/main.js'), 'twin', '--scenario', 'large-generated', '--kubeconfig', kubeconfig],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
const twinPeak = watchPeak(twin);
// The twin never outlives the bench, however the bench ends (a signal, a timeout, an error).
process.once('exit', () => twin.kill('SIGTERM'));
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));
const url = await new Promise<string>((resolve, reject) => {
  twin.once('exit', (code) => reject(new Error(`the twin exited (${code}) before serving`)));
  createInterface({ input: twin.stdout }).on('line', (line) => {
    const served = /serving (\S+)/.exec(line)?.[1];
    if (served !== undefined) resolve(served);
  });
});
interface Stats {
  total: number;
  requests: { verb: string; resource: string; count: number }[];
}
const twinStats = async (method: 'GET' | 'DELETE'): Promise<Stats> =>
  (await (await fetch(`${url}/twin/stats`, { method })).json()) as Stats;

const entry = join(root, 'dist/main.js');
const nodeFlags = shippedNodeFlags(entry);
/** NODE_OPTIONS as deploy/deployment.yaml gives the bot's container. */
const deployedNodeOptions = await (async (): Promise<string | undefined> => {
  const manifest = parse(await readFile(join(root, 'deploy/deployment.yaml'), 'utf8')) as {
    spec: { template: { spec: { containers: { env?: { name: string; value?: string }[] }[] } } };
  };
  const env = manifest.spec.template.spec.containers[0]?.env ?? [];
  return env.find((e) => e.name === 'NODE_OPTIONS')?.value;
})();

interface Run {
  exitCode: number | null;
  wallS: number;
  peak: number;
  stats: Stats;
  report: PreflightReport;
}

/** One `proxy-migrate preflight -o json` of the whole fleet, with NODE_OPTIONS or without. */
async function runPreflight(nodeOptions: string | undefined): Promise<Run> {
  await twinStats('DELETE');
  const started = performance.now();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    LOG_LEVEL: 'error',
    REDIS_URL: 'redis://127.0.0.1:1',
  };
  delete env['NODE_OPTIONS'];
  if (nodeOptions !== undefined) env['NODE_OPTIONS'] = nodeOptions;
  const bot = spawn(
    process.execPath,
    [
      ...nodeFlags,
      entry,
      'preflight',
      'large',
      '--kubeconfig',
      kubeconfig,
      '--context',
      'large-generated',
      '-o',
      'json',
      ...(mode === undefined ? [] : ['--probe', mode]),
      ...(concurrency === undefined ? [] : ['--concurrency', concurrency]),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], env },
  );
  // No Redis (REDIS_URL answers nothing): the terminal keeps its run state in files, as documented.
  // Progress lines go to stderr: kept, and shown only when the pre-flight did not produce a report.
  const errors: Buffer[] = [];
  bot.stderr.on('data', (chunk: Buffer) => errors.push(chunk));
  const peak = watchPeak(bot);
  const chunks: Buffer[] = [];
  bot.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
  const exitCode = await new Promise<number | null>((resolve) => bot.once('exit', resolve));
  const wallS = (performance.now() - started) / 1000;
  if (exitCode !== 0 && exitCode !== 2 && exitCode !== 3) {
    process.stderr.write(Buffer.concat(errors));
    throw new Error(`proxy-migrate preflight exited ${exitCode}`);
  }
  return {
    exitCode,
    wallS,
    peak: peak(),
    stats: await twinStats('GET'),
    report: JSON.parse(Buffer.concat(chunks).toString('utf8')) as PreflightReport,
  };
}

// The bot as deployed first (the Deployment's NODE_OPTIONS), then as an operator's terminal
// runs it (none): the same binary and fleet, so the two peaks differ only by the heap bound.
const deployed = await runPreflight(deployedNodeOptions);
const terminal = await runPreflight(undefined);
const { exitCode, wallS, stats, report } = deployed;
const count = (verb: string, resource: string): number =>
  stats.requests.find((r) => r.verb === verb && r.resource === resource)?.count ?? 0;

const { probing } = report;
const outliers = probing.pools.reduce((sum, p) => sum + p.outliers.length, 0);
const singlePods = count('create', 'pods');
const daemonSets = count('create', 'daemonsets');
console.log(
  `${pad('cluster')}${probing.nodes} nodes, ${report.pools.length} pools; preflight exit ${exitCode}`,
);
console.log(
  `${pad('probe mode')}${probing.mode}${mode === undefined ? ' (the default for this fleet size)' : ''}: ${probing.probed} of ${probing.nodes} nodes probed${probing.mode === 'sample' ? ` (${probing.probed - outliers} sampled, ${outliers} outliers)` : ''}, ${report.unprobed.length} with probe errors`,
);
console.log(
  `${pad('wall time')}${wallS.toFixed(1)} s for the whole fleet, process start to report   (goal about ${GOAL_WALL_S} s)`,
);
console.log(
  `${pad('API requests')}${stats.total} (${stats.requests.map((r) => `${r.verb} ${r.resource} ${r.count}`).join(', ')})`,
);
console.log(
  `${pad('probe pods created')}${daemonSets > 0 ? probing.probed : singlePods} (${daemonSets} DaemonSet${daemonSets === 1 ? '' : 's'}, ${singlePods} single probe pods)`,
);
console.log(
  `${pad('report')}${report.summary.block} block, ${report.summary.warn} warn, ${report.summary.info} info, ${report.summary.pass} pass; complete ${report.complete}`,
);
const started = `node ${[...nodeFlags, 'dist/main.js'].join(' ')}`;
console.log(
  `${pad('bot peak RSS')}${mib(deployed.peak)}   (goal < ${GOAL_BOT_RSS_MIB} MiB; as deployed: ${started}, NODE_OPTIONS=${deployedNodeOptions ?? '(none)'} from deploy/deployment.yaml)`,
);
console.log(
  `${pad('')}${mib(terminal.peak)} in a terminal without NODE_OPTIONS (${terminal.wallS.toFixed(1)} s; V8 sizes its heap to the machine's memory)`,
);
console.log(`${pad('twin peak RSS')}${mib(twinPeak())}   (its own process; no goal)`);

twin.kill('SIGTERM');
await new Promise((resolve) => twin.once('exit', resolve));
await rm(dir, { recursive: true, force: true });
