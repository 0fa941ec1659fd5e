/**
 * The ports a run works through, with every call waiting first until no Slack request waits for
 * its ack (ports/foreground.ts, bounded). In the bot's process the worker shares one event loop
 * with Bolt: without this, the steps in flight (Kubernetes reads and their parsing, probe
 * commands, status-card edits) take turns with a burst of commands and stretch its acks; with
 * it they pause for the burst, which lasts a fraction of a second. Responses already on their
 * way are still read; the lock's renewal, every third of its lease, waits at most the bound, as
 * does the run's heartbeat (every third of its TTL).
 */
import type { ChatPort } from '../ports/chat.js';
import type { ClusterDirectory, ClusterPort } from '../ports/cluster.js';
import type { Foreground } from '../ports/foreground.js';
import type { NodeShell } from '../ports/node-shell.js';
import type { RunStore } from '../ports/run-store.js';

function after<A extends unknown[], R>(
  foreground: Foreground,
  call: (...args: A) => Promise<R>,
): (...args: A) => Promise<R> {
  return async (...args) => {
    await foreground.quiet();
    return call(...args);
  };
}

export function foregroundFirstCluster(port: ClusterPort, fg: Foreground): ClusterPort {
  return {
    name: port.name,
    serverVersion: after(fg, () => port.serverVersion()),
    listNodes: after(fg, (onProgress?: Parameters<ClusterPort['listNodes']>[0]) =>
      port.listNodes(onProgress),
    ),
    listDaemonSets: after(fg, (namespace: string) => port.listDaemonSets(namespace)),
    listServices: after(fg, () => port.listServices()),
    listConfigMaps: after(fg, (namespace?: string) => port.listConfigMaps(namespace)),
    listPods: after(fg, (fieldSelector: string, keep?: Parameters<ClusterPort['listPods']>[1]) =>
      port.listPods(fieldSelector, keep),
    ),
    listPrometheusRules: after(fg, () => port.listPrometheusRules()),
    getConfigMap: after(fg, (namespace: string, name: string) =>
      port.getConfigMap(namespace, name),
    ),
    getDaemonSet: after(fg, (namespace: string, name: string) =>
      port.getDaemonSet(namespace, name),
    ),
    getNode: after(fg, (name: string) => port.getNode(name)),
    listEndpointSlices: after(fg, () => port.listEndpointSlices()),
    listPodsOnNode: after(fg, (node: string) => port.listPodsOnNode(node)),
    podLog: after(fg, (namespace: string, pod: string, container: string, tailLines: number) =>
      port.podLog(namespace, pod, container, tailLines),
    ),
    getLease: after(fg, (namespace: string, name: string) => port.getLease(namespace, name)),
    apply: after(fg, (...args: Parameters<ClusterPort['apply']>) => port.apply(...args)),
  };
}

export function foregroundFirstShell(shell: NodeShell, fg: Foreground): NodeShell {
  const warm = shell.warm?.bind(shell);
  return {
    run: after(fg, (...args: Parameters<NodeShell['run']>) => shell.run(...args)),
    ...(warm === undefined ? {} : { warm }),
    // Removing probe pods is never held back: nothing the bot created outlives its run.
    close: () => shell.close(),
  };
}

export function foregroundFirstChat(chat: ChatPort, fg: Foreground): ChatPort {
  return {
    post: after(fg, (...args: Parameters<ChatPort['post']>) => chat.post(...args)),
    update: after(fg, (...args: Parameters<ChatPort['update']>) => chat.update(...args)),
    postEphemeral: after(fg, (...args: Parameters<ChatPort['postEphemeral']>) =>
      chat.postEphemeral(...args),
    ),
    uploadFile: after(fg, (...args: Parameters<ChatPort['uploadFile']>) =>
      chat.uploadFile(...args),
    ),
    openDirect: after(fg, (user: string) => chat.openDirect(user)),
    respondToRun: after(fg, (...args: Parameters<ChatPort['respondToRun']>) =>
      chat.respondToRun(...args),
    ),
  };
}

/** Clients built once per cluster, as the directory itself does. */
export function foregroundFirstDirectory(
  directory: ClusterDirectory,
  fg: Foreground,
): ClusterDirectory {
  const clients = new Map<string, ClusterPort>();
  return {
    get: (name) => {
      let client = clients.get(name);
      if (client === undefined) {
        client = foregroundFirstCluster(directory.get(name), fg);
        clients.set(name, client);
      }
      return client;
    },
    nodeShell: (name, runId) => foregroundFirstShell(directory.nodeShell(name, runId), fg),
    // Removing left-over probe pods is never held back, like a shell's close.
    collectProbePods: (name, keep) => directory.collectProbePods(name, keep),
  };
}

/** The engine's saves and reads: a pre-flight's state holds its whole report, so each costs. */
export function foregroundFirstStore(store: RunStore, fg: Foreground): RunStore {
  return {
    description: store.description,
    create: after(fg, (state: Parameters<RunStore['create']>[0]) => store.create(state)),
    get: after(fg, (id: string) => store.get(id)),
    save: after(fg, (state: Parameters<RunStore['save']>[0]) => store.save(state)),
    list: after(fg, (query?: Parameters<RunStore['list']>[0]) => store.list(query)),
    beat: after(fg, (id: string, owner: string, ttlMs: number) => store.beat(id, owner, ttlMs)),
    owner: after(fg, (id: string) => store.owner(id)),
    close: () => store.close(),
  };
}
