/**
 * What the verifications of a node are judged against, read from the cluster: the Services the
 * dataplane must hold (read before the node, so a Service deleted in between is not "missing"),
 * the configuration the node's kube-proxy runs with, a ClusterIP and a NodePort worth calling
 * (one with ready endpoints and policy Cluster, so a failure means the dataplane), and a peer
 * node to call from (one still on IPVS when there is one).
 */
import { KUBE_SYSTEM } from '../../core/cluster-overview.js';
import type { KubeNode, KubeService } from '../../core/kube.js';
import {
  kubeProxyContainer,
  parseFlags,
  parseKubeProxyConfiguration,
  resolveConfigSource,
  type KubeProxyConfiguration,
} from '../../core/kube-proxy-config.js';
import { kubeProxiesOn, podReady } from '../../core/node-migration.js';
import { isReady } from '../../core/nodes.js';
import {
  expectedServices,
  serviceRef,
  type ExpectedPort,
  type ExpectedServices,
} from '../../verify/expected.js';
import type { StepContext } from '../step-context.js';
import { nodeTarget } from './node-target.js';

export interface VerifyTargets {
  node: KubeNode;
  expected: ExpectedServices;
  clusterIP: ExpectedPort | undefined;
  nodePort: ExpectedPort | undefined;
  peer: { node: string; migrated: boolean } | undefined;
  /** The configuration of the DaemonSet now serving the node; undefined for flags only. */
  config: KubeProxyConfiguration | undefined;
  /** The kube-proxy container's name, for its log. */
  container: string;
}

async function configOf(
  ctx: StepContext,
  daemonSet: string,
): Promise<{ config: KubeProxyConfiguration | undefined; container: string }> {
  const ds = await ctx.cluster.getDaemonSet(KUBE_SYSTEM, daemonSet);
  const container = ds === undefined ? undefined : kubeProxyContainer(ds);
  if (ds === undefined || container === undefined)
    return { config: undefined, container: 'kube-proxy' };
  const flags = parseFlags([...(container.command ?? []), ...(container.args ?? [])]);
  const source = resolveConfigSource(ds, container, flags);
  if (source.kind !== 'configmap') return { config: undefined, container: container.name };
  const cm = await ctx.cluster.getConfigMap(KUBE_SYSTEM, source.configMap);
  const parsed = parseKubeProxyConfiguration(cm?.data?.[source.key] ?? '');
  return { config: parsed.ok ? parsed.config : undefined, container: container.name };
}

/** Services whose ready endpoints make a call meaningful; NodePorts must use policy Cluster. */
async function callable(ctx: StepContext, services: readonly KubeService[]): Promise<Set<string>> {
  const slices = await ctx.cluster.listEndpointSlices();
  const ready = new Set<string>();
  for (const slice of slices) {
    const svc = slice.metadata.labels?.['kubernetes.io/service-name'];
    const any = (slice.endpoints ?? []).some(
      (e) => e.conditions?.ready !== false && e.addresses.length > 0,
    );
    if (svc !== undefined && any) ready.add(`${slice.metadata.namespace ?? 'default'}/${svc}`);
  }
  // The API server's own Service has endpoints that are not pods (and no slice label on some
  // distributions): it always answers.
  for (const s of services)
    if (serviceRef(s) === 'default/kubernetes') ready.add('default/kubernetes');
  return ready;
}

/**
 * The node to call the NodePort from: Ready, its kube-proxy Ready (a crash-looping peer would
 * fail the call for its own reasons), and still on IPVS when there is one, a known-good client.
 */
export async function choosePeer(
  ctx: StepContext,
  nodes: readonly KubeNode[],
  target: ReturnType<typeof nodeTarget>,
): Promise<{ node: string; migrated: boolean } | undefined> {
  const others = nodes.filter((n) => n.metadata.name !== target.node && isReady(n));
  const ordered = [
    ...others.filter((n) => n.metadata.labels?.[target.label] === undefined),
    ...others.filter((n) => n.metadata.labels?.[target.label] !== undefined),
  ];
  for (const n of ordered.slice(0, 5)) {
    const seen = kubeProxiesOn(await ctx.cluster.listPodsOnNode(n.metadata.name), target);
    if ([...seen.original, ...seen.canary].some(podReady)) {
      return { node: n.metadata.name, migrated: n.metadata.labels?.[target.label] !== undefined };
    }
  }
  const fallback = ordered[0];
  return fallback === undefined
    ? undefined
    : {
        node: fallback.metadata.name,
        migrated: fallback.metadata.labels?.[target.label] !== undefined,
      };
}

export async function verifyTargets(
  ctx: StepContext,
  serving: 'canary' | 'original',
): Promise<VerifyTargets> {
  const target = nodeTarget(ctx);
  const services = await ctx.cluster.listServices();
  const expected = expectedServices(services);
  const ready = await callable(ctx, services);
  const policyCluster = new Set(
    services.filter((s) => s.spec?.externalTrafficPolicy !== 'Local').map(serviceRef),
  );
  const tcp = expected.ports.filter((p) => p.protocol === 'tcp' && ready.has(p.service));
  const clusterIP = tcp.find((p) => p.service === 'default/kubernetes') ?? tcp[0];
  const nodePort = tcp.find((p) => p.nodePort !== undefined && policyCluster.has(p.service));
  const nodes = await ctx.cluster.listNodes();
  const node = nodes.find((n) => n.metadata.name === target.node);
  if (node === undefined) throw new Error(`node ${target.node} is gone`);
  const peer = await choosePeer(ctx, nodes, target);
  ctx.shell().warm?.(peer?.node ?? target.node);
  const { config, container } = await configOf(
    ctx,
    serving === 'canary' ? target.canary : target.original,
  );
  return {
    node,
    expected,
    clusterIP,
    nodePort,
    peer,
    config,
    container,
  };
}
