/** `/proxy-migrate clusters`: what this bot can drive, from where, and who approves. */
import type { ClusterConfig } from '../config.js';
import { channelAllowed } from '../core/cluster-access.js';
import type { ChatMessage } from '../ports/chat.js';
import { context, escape, paginate } from './blocks.js';

function approvers(cluster: ClusterConfig): string {
  const people = [
    ...cluster.approvers.users.map((u) => `<@${u}>`),
    ...cluster.approvers.groups.map((g) => `<!subteam^${g}>`),
  ];
  return people.length === 0 ? 'none configured' : people.join(' ');
}

function clusterLine(cluster: ClusterConfig, channelId: string): string {
  const allowed = channelAllowed(cluster, channelId);
  const channels =
    cluster.channels.length === 0
      ? 'any channel'
      : cluster.channels.map((c) => `<#${c}>`).join(' ');
  const target = cluster.inCluster
    ? 'in-cluster'
    : `context ${escape(cluster.context ?? 'current')}`;
  return [
    `${allowed ? ':large_green_circle:' : ':no_entry_sign:'} *${escape(cluster.name)}* · ${target}`,
    `    channels: ${channels} · approvers: ${approvers(cluster)}`,
    `    four-eyes ${cluster.fourEyes ? 'on' : 'off'} · approvals expire after ${cluster.approvalTtlMinutes} min`,
  ].join('\n');
}

export function clustersMessage(
  clusters: readonly ClusterConfig[],
  channelId: string,
): ChatMessage[] {
  const usable = clusters.filter((c) => channelAllowed(c, channelId));
  const title = `*${clusters.length} cluster${clusters.length === 1 ? '' : 's'}* configured, ${usable.length} usable from this channel`;
  const messages = paginate(
    title,
    clusters.map((c) => clusterLine(c, channelId)),
    `${clusters.length} clusters: ${clusters.map((c) => c.name).join(', ')}`,
  );
  const last = messages[messages.length - 1];
  last?.blocks?.push(
    context(':no_entry_sign: = not allowed from this channel. Only you see this message.'),
  );
  return messages;
}
