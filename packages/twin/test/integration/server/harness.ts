// Starts the twin's API server the way startTwin does (scenario, store, registry, createApiServer)
// but with test providers, and runs the real kubectl against it with a private HOME.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApiServer, ApiServerOptions } from '../../../src/server/api-server.js';
import { createApiServer } from '../../../src/server/api-server.js';
import type { ExecProvider } from '../../../src/server/streams/exec.js';
import type { LogLine, LogsProvider } from '../../../src/server/streams/logs.js';
import { createClock } from '../../../src/clock.js';
import type { KubeObject } from '../../../src/index.js';
import { Registry, loadScenario, renderKubeconfig, resourceFor } from '../../../src/index.js';
import { ObjectStore } from '../../../src/store/store.js';
import type { Kubectl } from '../../../src/testing/kubectl.js';
import { kubectlWith } from '../../../src/testing/kubectl.js';
import { eventually } from '../../../src/testing/wait.js';

export interface Harness {
  url: string;
  api: ApiServer;
  registry: Registry;
  kubeconfigYaml: string;
  /** kubectl's environment, for the spawned (streaming) runs. */
  env: NodeJS.ProcessEnv;
  /** The real kubectl against the harness, with a 25 s limit. */
  kubectl: Kubectl;
  close(): Promise<void>;
}

export type ExtraOptions = Partial<Omit<ApiServerOptions, 'registry'>>;

export async function startHarness(extra: ExtraOptions = {}): Promise<Harness> {
  const scenario = await loadScenario('kubeadm-ipvs');
  const store = new ObjectStore(createClock(1));
  const registry = new Registry(store);
  registry.seed(scenario.objects);
  const api = createApiServer({
    registry,
    kubernetesVersion: scenario.header.spec.kubernetesVersion,
    scenarioHeader: scenario.headerJson,
    faultSeed: scenario.header.metadata.name,
    ...extra,
  });
  await new Promise<void>((resolve) => api.server.listen(0, '127.0.0.1', resolve));
  const { port } = api.server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  const kubeconfigYaml = renderKubeconfig({ name: scenario.header.metadata.name, server: url });
  const dir = await mkdtemp(join(tmpdir(), 'twin-api-'));
  await writeFile(join(dir, 'kubeconfig'), kubeconfigYaml);
  // A private HOME keeps kubectl's discovery and HTTP caches out of other tests.
  const env = { PATH: process.env['PATH'], KUBECONFIG: join(dir, 'kubeconfig'), HOME: dir };
  return {
    url,
    api,
    registry,
    kubeconfigYaml,
    env,
    kubectl: kubectlWith(join(dir, 'kubeconfig'), dir, { timeoutMs: 25_000 }),
    close: async () => {
      api.stopWatches();
      await new Promise<void>((resolve) => {
        api.server.close(() => resolve());
        api.server.closeAllConnections();
      });
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A long-running kubectl (logs -f, get -w) whose output can be awaited as it arrives. */
export interface Running {
  child: ChildProcess;
  stdout(): string;
  waitFor(text: string, timeoutMs?: number): Promise<void>;
  exit: Promise<number | null>;
}

export function kubectlStream(env: NodeJS.ProcessEnv, ...args: string[]): Running {
  const child = spawn('kubectl', args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stderr.resume();
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const waitFor = async (text: string, timeoutMs = 15_000): Promise<void> => {
    try {
      await eventually(text, () => (out.includes(text) ? true : undefined), timeoutMs);
    } catch (error) {
      throw new Error(`${(error as Error).message}; got ${out}`, { cause: error });
    }
  };
  return { child, stdout: () => out, waitFor, exit };
}

/** A Running pod on cp-1 with the given containers, created through the registry. */
export function createRunningPod(
  registry: Registry,
  name: string,
  containers: string[] = ['kube-proxy'],
  extra: {
    labels?: Record<string, string>;
    ownerReferences?: KubeObject['metadata']['ownerReferences'];
    /** The container restarted once: lastState.terminated names the previous container. */
    restarted?: boolean;
  } = {},
): KubeObject {
  const pods = resourceFor('pods');
  const metadata: KubeObject['metadata'] = { name, namespace: 'kube-system' };
  if (extra.labels) metadata.labels = extra.labels;
  if (extra.ownerReferences) metadata.ownerReferences = extra.ownerReferences;
  const created = registry.create(pods, {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata,
    spec: {
      nodeName: 'cp-1',
      containers: containers.map((c) => ({ name: c, image: 'registry.k8s.io/kube-proxy:v1.33.4' })),
    },
  });
  return registry.update(
    pods,
    {
      ...created,
      status: {
        phase: 'Running',
        conditions: [{ type: 'Ready', status: 'True' }],
        containerStatuses: containers.map((c) => ({
          name: c,
          ready: true,
          restartCount: extra.restarted ? 1 : 0,
          state: { running: { startedAt: '2025-08-11T08:30:10Z' } },
          lastState: extra.restarted
            ? {
                terminated: {
                  containerID: `containerd://${name}-${c}-0`,
                  exitCode: 1,
                  reason: 'Error',
                  startedAt: '2025-08-11T08:29:00Z',
                  finishedAt: '2025-08-11T08:30:00Z',
                },
              }
            : {},
        })),
      },
    },
    undefined,
    { subresource: 'status' },
  );
}

/** How many exec requests were aborted because the client left (the `block` command). */
export const execAborts = { count: 0 };

/**
 * echo prints its arguments; `exit N` exits N; `fail` throws; `sleep` never finishes; `block` ends
 * when the session is aborted; `cat` echoes stdin.
 */
export const stubExec: ExecProvider = async (req) => {
  const [cmd, ...args] = req.command;
  switch (cmd) {
    case 'echo':
      return { exitCode: 0, stdout: `${args.join(' ')}\n`, stderr: '' };
    case 'exit':
      return { exitCode: Number(args[0] ?? 0), stdout: '', stderr: `exiting ${args[0] ?? 0}\n` };
    case 'fail':
      throw new Error('provider exploded');
    case 'sleep':
      return new Promise(() => undefined);
    case 'block':
      return new Promise((resolve) =>
        req.signal?.addEventListener('abort', () => {
          execAborts.count += 1;
          resolve({ exitCode: 0, stdout: '', stderr: '' });
        }),
      );
    case 'cat': {
      const chunks: Buffer[] = [];
      for await (const chunk of req.stdin ?? []) chunks.push(chunk);
      return { exitCode: 0, stdout: Buffer.concat(chunks), stderr: '' };
    }
    default:
      return { exitCode: 127, stdout: '', stderr: `${cmd ?? ''}: command not found\n` };
  }
};

/** Per pod/container log buffers the test can append to. */
export class StubLogs {
  private readonly logs = new Map<string, { lines: LogLine[]; subs: Set<(l: LogLine) => void> }>();
  readonly previous = new Map<string, LogLine[]>();

  private entry(key: string) {
    let e = this.logs.get(key);
    if (!e) {
      e = { lines: [], subs: new Set() };
      this.logs.set(key, e);
    }
    return e;
  }

  append(pod: string, container: string, text: string, time = Date.now()): void {
    const e = this.entry(`${pod}/${container}`);
    const line = { time, text };
    e.lines.push(line);
    for (const fn of e.subs) fn(line);
  }

  subscribers(pod: string, container: string): number {
    return this.entry(`${pod}/${container}`).subs.size;
  }

  readonly provider: LogsProvider = (pod, container) => {
    const key = `${pod.metadata.name ?? ''}/${container}`;
    const e = this.entry(key);
    return {
      lines: () => [...e.lines],
      previousLines: () => this.previous.get(key),
      subscribe: (fn) => {
        e.subs.add(fn);
        return () => e.subs.delete(fn);
      },
    };
  };
}
