/**
 * Which cluster a request names and whether it may be driven from where it was asked. Pure: the
 * command layer turns the errors into ephemeral replies before anything is queued.
 */
import type { ClusterConfig } from '../config.js';
import { AppError } from '../errors.js';

/** Edit distance, for "did you mean" on mistyped cluster names. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

function closest(name: string, candidates: readonly string[]): string | undefined {
  const ranked = candidates
    .map((candidate) => ({ candidate, distance: editDistance(name, candidate) }))
    .filter(({ distance }) => distance <= Math.max(2, Math.floor(name.length / 4)))
    .sort((a, b) => a.distance - b.distance);
  return ranked[0]?.candidate;
}

function listNames(names: readonly string[], max = 10): string {
  if (names.length === 0) return 'none from this channel';
  if (names.length <= max) return names.join(', ');
  return `${names.slice(0, max).join(', ')} and ${names.length - max} more`;
}

/**
 * Finds the named cluster and checks that `channelId` may drive it (an empty channel list means
 * any channel; no channel id means a terminal run, which channels do not restrict). Throws a
 * USAGE, UNKNOWN_CLUSTER or CHANNEL_NOT_ALLOWED {@link AppError}.
 */
export function resolveCluster(
  clusters: readonly ClusterConfig[],
  name: string | undefined,
  channelId: string | undefined,
  usage: string,
): ClusterConfig {
  // Names offered in errors are the ones this channel may drive: others are not its business.
  // Listed only for an error: a command's ack waits for this, and a fleet has hundreds.
  const names = (): string[] =>
    clusters
      .filter((c) => channelId === undefined || channelAllowed(c, channelId))
      .map((c) => c.name);
  if (name === undefined || name === '') {
    throw new AppError('USAGE', 'Which cluster?', {
      remedy: `Usage: ${usage}. Known clusters: ${listNames(names())}.`,
    });
  }
  const wanted = name.toLowerCase();
  const cluster = clusters.find((c) => c.name === wanted);
  if (cluster === undefined) {
    const known = names();
    const suggestion = closest(wanted, known);
    throw new AppError(
      'UNKNOWN_CLUSTER',
      `Unknown cluster "${name}". Known: ${listNames(known)}.`,
      {
        remedy: `${suggestion === undefined ? '' : `Did you mean ${suggestion}? `}Usage: ${usage}`,
      },
    );
  }
  if (channelId !== undefined && !channelAllowed(cluster, channelId)) {
    throw new AppError(
      'CHANNEL_NOT_ALLOWED',
      `Cluster ${cluster.name} cannot be driven from this channel.`,
      {
        remedy: `Run it from ${cluster.channels.map((c) => `<#${c}>`).join(', ')}, or ask an admin to add this channel to ${cluster.name}’s channels in the clusters file.`,
      },
    );
  }
  return cluster;
}

/** Whether a cluster may be driven from the channel (for listings; no error). */
export function channelAllowed(cluster: ClusterConfig, channelId: string): boolean {
  return cluster.channels.length === 0 || cluster.channels.includes(channelId);
}
