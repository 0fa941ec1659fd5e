// The twin over HTTP with its controllers, plus the real kubectl pointed at it: what the
// integration tests drive, as an operator (or the product) would.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ControllerOptions, Controllers } from '../../../src/controllers/index.js';
import { startControllers } from '../../../src/controllers/index.js';
import type { KubeObject, Twin } from '../../../src/index.js';
import { startTwin } from '../../../src/index.js';
import type { Kubectl, KubectlResult } from '../../../src/testing/kubectl.js';
import { kubectlWith, rows } from '../../../src/testing/kubectl.js';
import { eventually } from '../../../src/testing/wait.js';

export interface LiveTwin {
  twin: Twin;
  controllers: Controllers;
  dir: string;
  kubectl: Kubectl;
  /** kubectl with a JSON or YAML document on a file, for `create -f`. */
  kubectlWithFile(name: string, content: string, ...args: string[]): Promise<KubectlResult>;
  close(): Promise<void>;
}

export async function startLiveTwin(
  speed = 50,
  options: Partial<ControllerOptions> = {},
): Promise<LiveTwin> {
  // The twin's own controllers are off so each test can start them with its own runtime.
  const twin = await startTwin({ scenario: 'kubeadm-ipvs', speed, controllers: false });
  let dir: string | undefined;
  try {
    dir = await mkdtemp(join(tmpdir(), 'twin-controllers-'));
    await twin.writeKubeconfig(join(dir, 'kubeconfig'));
  } catch (error) {
    await twin.close();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
    throw error;
  }
  // Started last: nothing after this can fail, so they never outlive a failed start.
  const controllers = startControllers({
    registry: twin.registry,
    store: twin.store,
    clock: twin.store.clock,
    hosts: twin.scenario.header.spec.hosts,
    ...options,
  });
  // A private HOME keeps kubectl's discovery cache out of other tests.
  const kubectl = kubectlWith(join(dir, 'kubeconfig'), dir);
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
