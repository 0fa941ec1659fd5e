/**
 * Pre-flight in Slack: a status card as the run's parent message (edited in place from
 * "gathering" to the result) and the detail in thread replies, or in a file when it is long.
 */
import type { ClusterOverview, KubeProxyOverview } from '../core/cluster-overview.js';
import type { NodeRow } from '../core/nodes.js';
import { asAppError } from '../errors.js';
import type { ChatMessage, FileUpload } from '../ports/chat.js';
import {
  context,
  duration,
  escape,
  escapeKeepingMentions,
  paginate,
  section,
  utcTime,
} from './blocks.js';

/** Who asked and when: shown on every card of the run. */
export interface RunMeta {
  runId: string;
  requestedBy: string;
  requestedAt: string;
}

/** More thread replies than this and the node list goes into a file instead. */
export const MAX_THREAD_REPLIES = 8;
const MAX_POOLS_ON_CARD = 15;

function footer(meta: RunMeta, extra: string[] = []): string {
  return [
    `requested by <@${meta.requestedBy}>`,
    utcTime(meta.requestedAt),
    ...extra,
    `run \`${meta.runId}\``,
  ].join(' · ');
}

export function preflightGatheringCard(cluster: string, meta: RunMeta): ChatMessage {
  return {
    text: `Pre-flight for ${cluster}: reading the cluster…`,
    blocks: [
      section(
        `:mag: *Pre-flight · ${escape(cluster)}* · reading nodes and kube-proxy configuration…`,
      ),
      context(footer(meta)),
    ],
  };
}

function modeText(kubeProxy: KubeProxyOverview): string {
  const mode = kubeProxy.mode;
  if (mode === undefined) return 'mode unknown';
  if (mode.effective === 'unknown')
    return `mode "${escape(mode.configured ?? '')}" (not a mode kube-proxy knows)`;
  if (mode.source === 'default') return `mode ${mode.effective} (not set: defaulted)`;
  return `mode ${mode.effective}`;
}

function kubeProxyLines(kubeProxy: KubeProxyOverview): string[] {
  if (kubeProxy.daemonSet === undefined)
    return [`:warning: kube-proxy: ${escape(kubeProxy.problem ?? 'not found')}`];
  const source = kubeProxy.source;
  const where =
    source?.kind === 'configmap'
      ? `config from ConfigMap \`kube-system/${escape(source.configMap)}\` key \`${escape(source.key)}\``
      : source?.kind === 'unresolved'
        ? `config file \`${escape(source.path)}\``
        : 'configured by flags';
  const lines = [
    `*kube-proxy*: DaemonSet \`kube-system/${escape(kubeProxy.daemonSet)}\` · ${kubeProxy.image === undefined ? 'no image' : `\`${escape(kubeProxy.image)}\``} · ${where} · *${modeText(kubeProxy)}*`,
  ];
  if (kubeProxy.problem !== undefined) lines.push(`:warning: ${escape(kubeProxy.problem)}`);
  const ignored = kubeProxy.mode?.ignoredFlags ?? [];
  if (ignored.length > 0) {
    lines.push(
      `:warning: ignored because \`--config\` is set: ${ignored.map((f) => `\`${escape(f)}\``).join(' ')}`,
    );
  }
  return lines;
}

export function preflightCard(ov: ClusterOverview, meta: RunMeta): ChatMessage {
  const mode = ov.kubeProxy.mode?.effective ?? 'unknown';
  const headline = `:mag: *Pre-flight · ${escape(ov.cluster)}* · ${escape(ov.kubernetesVersion)} · mode ${mode} (${ov.nodes.length} nodes, ${ov.pools.length} pools)`;
  const pools = ov.pools
    .slice(0, MAX_POOLS_ON_CARD)
    .map(
      (p) =>
        `• *${escape(p.name)}*: ${p.nodes} node${p.nodes === 1 ? '' : 's'}${p.ready === p.nodes ? '' : `, ${p.nodes - p.ready} not ready`}`,
    );
  if (ov.pools.length > MAX_POOLS_ON_CARD)
    pools.push(`• and ${ov.pools.length - MAX_POOLS_ON_CARD} more pools`);
  return {
    text: `Pre-flight ${ov.cluster}: ${ov.kubernetesVersion}, mode ${mode}, ${ov.nodes.length} nodes`,
    blocks: [
      section(headline),
      section(kubeProxyLines(ov.kubeProxy).join('\n')),
      section(`*Pools* (${ov.readyNodes}/${ov.nodes.length} nodes ready)\n${pools.join('\n')}`),
      context(footer(meta, [`took ${duration(ov.durationMs)}`]), 'Node list ▸ in thread'),
    ],
  };
}

function nodeLine(node: NodeRow): string {
  const state = node.ready ? 'Ready' : ':red_circle: NotReady';
  const cordoned = node.schedulable ? '' : ' · cordoned';
  return `• \`${escape(node.name)}\` · ${state}${cordoned} · kernel ${escape(node.kernel)} · kubelet ${escape(node.kubelet)} · ${escape(node.internalIP)}`;
}

export interface ThreadReport {
  replies: ChatMessage[];
  file?: FileUpload;
}

/** One reply per pool; past {@link MAX_THREAD_REPLIES} messages, one summary reply plus a file. */
export function preflightThread(ov: ClusterOverview): ThreadReport {
  const replies = ov.pools.flatMap((pool) =>
    paginate(
      `*Pool ${escape(pool.name)}* · ${ov.cluster} · ${pool.nodes} nodes`,
      ov.nodes.filter((n) => n.pool === pool.name).map(nodeLine),
      `Pool ${pool.name} on ${ov.cluster}: ${pool.nodes} nodes`,
    ),
  );
  if (replies.length <= MAX_THREAD_REPLIES) return { replies };
  return {
    replies: [
      {
        text: `Node list for ${ov.cluster} is in the attached file`,
        blocks: [
          section(
            `The node list for *${escape(ov.cluster)}* (${ov.nodes.length} nodes in ${ov.pools.length} pools) is too long for the thread: it is in the attached file.`,
          ),
        ],
      },
    ],
    file: {
      filename: `preflight-${ov.cluster}-nodes.md`,
      title: `Pre-flight nodes · ${ov.cluster}`,
      content: nodesMarkdown(ov),
    },
  };
}

export function nodesMarkdown(ov: ClusterOverview): string {
  const lines = [`# Nodes of ${ov.cluster} (${ov.kubernetesVersion})`, ''];
  for (const pool of ov.pools) {
    lines.push(
      `## Pool ${pool.name} (${pool.nodes} nodes)`,
      '',
      '| node | ready | kernel | kubelet | address |',
      '|---|---|---|---|---|',
    );
    for (const n of ov.nodes.filter((row) => row.pool === pool.name)) {
      lines.push(
        `| ${n.name} | ${n.ready ? 'yes' : 'no'} | ${n.kernel} | ${n.kubelet} | ${n.internalIP} |`,
      );
    }
    lines.push('');
  }
  return lines.join('\n');
}

/** The card when the cluster could not be read: what failed, the code, what to check. */
export function preflightFailedCard(
  cluster: string,
  error: unknown,
  meta: RunMeta,
  retrying: boolean,
): ChatMessage {
  const appError = asAppError(error);
  const status = retrying ? ':hourglass_flowing_sand: retrying' : ':x: failed';
  return {
    text: `Pre-flight for ${cluster} ${retrying ? 'is retrying' : 'failed'}: ${appError.message}`,
    blocks: [
      section(
        `${status} *Pre-flight · ${escape(cluster)}*\n${escape(appError.message)}\n${escapeKeepingMentions(appError.remedy)}`,
      ),
      context(footer(meta, [`error code \`${appError.code}\``])),
    ],
  };
}
