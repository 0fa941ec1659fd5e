/**
 * `/proxy-migrate clusters`: what this channel may drive, and who approves there. Clusters the
 * channel may not drive are not shown at all (not their names, contexts, channels or approvers):
 * a channel of another team, or any channel a cluster does not list, learns nothing from it.
 */
import type { ClusterConfig } from '../config.js';
import { channelAllowed } from '../core/cluster-access.js';
import type { ChatMessage } from '../ports/chat.js';
import { context, escape, paginate, section } from './blocks.js';

function approvers(cluster: ClusterConfig): string {
  const people = [
    ...cluster.approvers.users.map((u) => `<@${u}>`),
    ...cluster.approvers.groups.map((g) => `<!subteam^${g}>`),
  ];
  return people.length === 0 ? 'none configured' : people.join(' ');
}

function clusterLine(cluster: ClusterConfig): string {
  const channels =
    cluster.channels.length === 0
      ? 'any channel'
      : cluster.channels.map((c) => `<#${c}>`).join(' ');
  const target = cluster.inCluster
    ? 'in-cluster'
    : `context ${escape(cluster.context ?? 'current')}`;
  return [
    `:large_green_circle: *${escape(cluster.name)}* · ${target}`,
    `    channels: ${channels} · approvers: ${approvers(cluster)}`,
    `    four-eyes ${cluster.fourEyes ? 'on' : 'off'} · approvals expire after ${cluster.approvalTtlMinutes} min`,
  ].join('\n');
}

/** The asking channel as a link when its id looks like one (it comes with the request). */
const channelLink = (channelId: string): string =>
  /^[CGD][A-Z0-9]{2,30}$/.test(channelId) ? `<#${channelId}>` : 'this channel';

export function clustersMessage(
  clusters: readonly ClusterConfig[],
  channelId: string,
): ChatMessage[] {
  const usable = clusters.filter((c) => channelAllowed(c, channelId));
  if (usable.length === 0) {
    return [
      {
        text: 'No cluster can be driven from this channel.',
        blocks: [
          section(
            `No cluster can be driven from this channel. Ask an admin to add ${channelLink(channelId)} to a cluster’s \`channels\` in the clusters file, or run this in a channel that has one.`,
          ),
          context('Only you see this message.'),
        ],
      },
    ];
  }
  const title = `*${usable.length} cluster${usable.length === 1 ? '' : 's'}* usable from this channel`;
  const messages = paginate(
    title,
    usable.map(clusterLine),
    `${usable.length} cluster${usable.length === 1 ? '' : 's'}: ${usable.map((c) => c.name).join(', ')}`,
  );
  messages[messages.length - 1]?.blocks?.push(
    context('Only clusters this channel may drive are listed. Only you see this message.'),
  );
  return messages;
}
