// Each node's kubelet heartbeat: the Lease `kube-node-lease/<node>` (component-helpers
// apimachinery/lease/controller.go, as pkg/kubelet/kubelet.go runs it). Held by the node name,
// leaseDurationSeconds 40 (the kubelet default), renewTime set on every sync, renewed every
// 0.25 × 40 s = 10 s plus up to 4% jitter (wait.JitterUntil), owned by the Node
// (util.SetNodeOwnerFunc). A node whose kubelet is down (the `kubelet-down` host fault) stops
// renewing; when the kubelet comes back it renews at once.

import type { Clock } from '../../clock.js';
import { createScheduler, type Cancel } from '../../clock.js';
import { seededRandom } from '../../server/admin/prng.js';
import { microTimeAt } from '../../apimachinery/micro-time.js';
import type { JsonObject, KubeObject } from '../../apimachinery/types.js';
import { asRecord } from '../../apimachinery/types.js';
import type { Registry } from '../../registry/registry.js';
import { resourceFor } from '../../registry/resources.js';
import type { HostSpec } from '../../scenario/schema.js';
import type { ChangeEvent } from '../../store/store.js';
import { hostFaultsFor } from '../node-lifecycle/nodes.js';
import { nodesDef } from '../kube.js';
import type { ErrorSink } from '../work-queue.js';
import { apiServerManager, kubeletManager } from '../managers.js';

export const leasesDef = resourceFor('leases');
export const nodeLeaseNamespace = 'kube-node-lease';

export interface NodeLeaseTimings {
  /** KubeletConfiguration.nodeLeaseDurationSeconds (default 40). */
  leaseDurationSeconds: number;
  /** nodeLeaseRenewIntervalFraction in pkg/kubelet/kubelet.go. */
  renewFraction: number;
  /** The jitter factor lease.Controller passes to wait.JitterUntil. */
  jitter: number;
}

export const defaultNodeLeaseTimings: NodeLeaseTimings = {
  leaseDurationSeconds: 40,
  renewFraction: 0.25,
  jitter: 0.04,
};

export interface NodeLeaseOptions {
  registry: Registry;
  clock: Clock;
  hosts: readonly HostSpec[];
  onError: ErrorSink;
  timings?: Partial<NodeLeaseTimings>;
}

export interface NodeLeases {
  /** The kubelet on `node` stops (true) or starts again (false). */
  setKubeletDown(node: string, down: boolean): void;
  stop(): void;
}

function ownerRef(node: KubeObject): JsonObject {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    name: node.metadata.name ?? '',
    uid: node.metadata.uid ?? '',
  };
}

export function startNodeLeases(opts: NodeLeaseOptions): NodeLeases {
  const { registry, clock } = opts;
  const store = registry.store;
  const timings = { ...defaultNodeLeaseTimings, ...opts.timings };
  const renewMs = timings.leaseDurationSeconds * 1000 * timings.renewFraction;
  // Heartbeats are background work: their own scheduler, so controllers.settle() never waits
  // for them, while a manual clock still fires them as it advances.
  const scheduler = createScheduler(clock);
  const timers = new Map<string, Cancel>();
  const down = new Set<string>();
  const random = new Map<string, () => number>();

  function ensureNamespace(): void {
    const namespaces = resourceFor('namespaces');
    if (store.get(namespaces, undefined, nodeLeaseNamespace)) return;
    // The apiserver's system-namespaces controller keeps kube-node-lease in place.
    registry.create(
      namespaces,
      {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: nodeLeaseNamespace },
      },
      { manager: apiServerManager },
    );
  }

  /** lease.Controller.newLease: the bare minimum of fields, plus the Node as owner. */
  function newLease(node: KubeObject, nowMs: number): KubeObject {
    const name = node.metadata.name ?? '';
    return {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name, namespace: nodeLeaseNamespace, ownerReferences: [ownerRef(node)] },
      spec: {
        holderIdentity: name,
        leaseDurationSeconds: timings.leaseDurationSeconds,
        renewTime: microTimeAt(nowMs),
      },
    };
  }

  /** lease.Controller.sync: create the Lease if missing, else renew it. */
  function sync(name: string): void {
    const node = store.get(nodesDef, undefined, name);
    if (!node) return;
    const lease = store.get(leasesDef, nodeLeaseNamespace, name);
    if (!lease) {
      ensureNamespace();
      registry.create(leasesDef, newLease(node, clock.now()), { manager: kubeletManager });
      return;
    }
    const metadata = { ...lease.metadata };
    if ((metadata.ownerReferences ?? []).length === 0) metadata.ownerReferences = [ownerRef(node)];
    const spec = { ...asRecord(lease['spec']), renewTime: microTimeAt(clock.now()) };
    registry.update(leasesDef, { ...lease, metadata, spec }, lease.metadata.resourceVersion, {
      manager: kubeletManager,
    });
  }

  function randomFor(name: string): () => number {
    const rand = random.get(name) ?? seededRandom(`node-lease/${name}`);
    random.set(name, rand);
    return rand;
  }

  function schedule(name: string, delayMs: number): void {
    timers.set(
      name,
      scheduler.after(delayMs, () => loop(name)),
    );
  }

  /** wait.JitterUntil: sync, then wait the interval plus up to `jitter` of it. */
  function loop(name: string): void {
    timers.get(name)?.();
    timers.delete(name);
    if (down.has(name) || !store.get(nodesDef, undefined, name)) return;
    try {
      sync(name);
    } catch (error) {
      opts.onError(error, `node lease ${name}`);
    }
    schedule(name, renewMs * (1 + timings.jitter * randomFor(name)()));
  }

  /**
   * The twin boots "already up": the kubelets started at different times, so their Leases exist
   * and their renewals are spread over one interval. Missing Leases are loaded like scenario
   * objects (no events), which also keeps a 5,000-node boot from being 5,000 creates. A kubelet
   * that is down at boot was alive until now: its Lease exists but is not renewed.
   */
  function boot(): void {
    const missing: KubeObject[] = [];
    const now = clock.now();
    for (const node of store.list(nodesDef).items) {
      const name = node.metadata.name ?? '';
      if (!store.get(leasesDef, nodeLeaseNamespace, name)) missing.push(newLease(node, now));
      if (hostFaultsFor(opts.hosts, node).has('kubelet-down')) down.add(name);
      else schedule(name, renewMs * randomFor(name)());
    }
    if (missing.length === 0) return;
    ensureNamespace();
    store.load(leasesDef, missing);
  }

  function onChange(event: ChangeEvent): void {
    if (event.resource.plural !== 'nodes') return;
    const name = event.object.metadata.name ?? '';
    if (event.type === 'ADDED') loop(name);
    if (event.type === 'DELETED') {
      timers.get(name)?.();
      timers.delete(name);
    }
  }

  boot();
  const unsubscribe = store.subscribe(onChange);

  function setKubeletDown(name: string, isDown: boolean): void {
    if (isDown) {
      down.add(name);
      timers.get(name)?.();
      timers.delete(name);
    } else if (down.delete(name)) {
      loop(name);
    }
  }

  return {
    setKubeletDown,
    stop() {
      unsubscribe();
      scheduler.stop();
      timers.clear();
    },
  };
}
