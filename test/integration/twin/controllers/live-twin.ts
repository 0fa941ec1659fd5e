// The twin over HTTP with its controllers, plus the real kubectl pointed at it: what the
// integration tests drive, as an operator (or the product) would.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ControllerOptions, Controllers } from '../../../../src/twin/controllers/index.js';
import { startControllers } from '../../../../src/twin/controllers/index.js';
import type { KubeObject, Twin } from '../../../../src/twin/index.js';
import { startTwin } from '../../../../src/twin/index.js';

export interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

export interface LiveTwin {
  twin: Twin;
  controllers: Controllers;
  dir: string;
  kubectl(...args: string[]): Promise<Result>;
  /** kubectl with a JSON or YAML document on a file, for `create -f`. */
  kubectlWithFile(name: string, content: string, ...args: string[]): Promise<Result>;
  close(): Promise<void>;
}

export async function startLiveTwin(
  speed = 50,
  options: Partial<ControllerOptions> = {},
): Promise<LiveTwin> {
  // The twin's own controllers are off so each test can start them with its own runtime.
  const twin = await startTwin({ scenario: 'kubeadm-ipvs', speed, controllers: false });
  const controllers = startControllers({
    registry: twin.registry,
    store: twin.store,
    clock: twin.store.clock,
    hosts: twin.scenario.header.spec.hosts,
    ...options,
  });
  const dir = await mkdtemp(join(tmpdir(), 'twin-controllers-'));
  await twin.writeKubeconfig(join(dir, 'kubeconfig'));
  // A private HOME keeps kubectl's discovery cache out of other tests.
  const env = { PATH: process.env['PATH'], KUBECONFIG: join(dir, 'kubeconfig'), HOME: dir };
  const kubectl = (...args: string[]): Promise<Result> =>
    new Promise((resolve) => {
      execFile('kubectl', args, { env, timeout: 60_000 }, (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      });
    });
  return {
    twin,
    controllers,
    dir,
    kubectl,
    async kubectlWithFile(name, content, ...args) {
      const path = join(dir, name);
      await writeFile(path, content);
      return kubectl(...args, '-f', path);
    },
    async close() {
      controllers.stop();
      await twin.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Polls until `check` returns a value (not undefined), or fails after a generous deadline. */
export async function eventually<T>(
  what: string,
  check: () => Promise<T | undefined> | T | undefined,
  deadlineMs = 20_000,
): Promise<T> {
  const until = Date.now() + deadlineMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Table output as rows of cells split on runs of 2+ spaces. */
export function rows(stdout: string): string[][] {
  return stdout
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s{2,}/));
}

export interface PodRow {
  name: string;
  uid: string;
  node: string;
  app: string;
}

/** kube-proxy pods of both DaemonSets, as `kubectl get -o json` lists them. */
export async function proxyPods(live: LiveTwin): Promise<PodRow[]> {
  const r = await live.kubectl(
    '-n',
    'kube-system',
    'get',
    'pods',
    '-l',
    'k8s-app in (kube-proxy,kube-proxy-nftables)',
    '-o',
    'json',
  );
  if (r.code !== 0) throw new Error(r.stderr);
  const list = JSON.parse(r.stdout) as { items: KubeObject[] };
  return list.items.map((p) => ({
    name: p.metadata.name ?? '',
    uid: p.metadata.uid ?? '',
    node: String((p['spec'] as { nodeName?: string }).nodeName ?? ''),
    app: p.metadata.labels?.['k8s-app'] ?? '',
  }));
}

/** `kubectl get pods -o wide` rows once every kube-proxy pod is Running 1/1. */
export async function settledProxyTable(live: LiveTwin, expected: number): Promise<string[][]> {
  return eventually('kube-proxy pods Running 1/1', async () => {
    const r = await live.kubectl(
      '-n',
      'kube-system',
      'get',
      'pods',
      '-l',
      'k8s-app=kube-proxy',
      '-o',
      'wide',
    );
    const table = rows(r.stdout).slice(1);
    const ok =
      table.length === expected && table.every((row) => row[1] === '1/1' && row[2] === 'Running');
    return ok ? table : undefined;
  });
}

/** DESIRED, CURRENT, READY, UP-TO-DATE and AVAILABLE of one DaemonSet. */
export async function dsColumns(live: LiveTwin, name: string): Promise<string[]> {
  const r = await live.kubectl('-n', 'kube-system', 'get', 'ds', name);
  if (r.code !== 0) throw new Error(r.stderr);
  return rows(r.stdout)[1]!.slice(1, 6);
}
