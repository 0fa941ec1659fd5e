import { describe, expect, it } from 'vitest';
import { clusterConfig, type ClusterConfig } from '../../../src/config.js';
import { channelAllowed, editDistance, resolveCluster } from '../../../src/core/cluster-access.js';
import { AppError } from '../../../src/errors.js';

function cluster(name: string, channels: string[] = []): ClusterConfig {
  return clusterConfig({ name, channels });
}

const clusters = [cluster('cluster-a', ['C0OPS']), cluster('cluster-b')];
const usage = '/proxy-migrate preflight <cluster>';

function errorOf(fn: () => unknown): AppError {
  try {
    fn();
  } catch (error) {
    if (error instanceof AppError) return error;
  }
  throw new Error('expected an AppError');
}

describe('resolveCluster', () => {
  it('finds a cluster case-insensitively from an allowed channel', () => {
    expect(resolveCluster(clusters, 'Cluster-A', 'C0OPS', usage).name).toBe('cluster-a');
    expect(resolveCluster(clusters, 'cluster-b', 'CANYWHERE', usage).name).toBe('cluster-b');
  });

  it('asks which cluster when none is named, listing the known ones', () => {
    const error = errorOf(() => resolveCluster(clusters, undefined, 'C0OPS', usage));
    expect(error.code).toBe('USAGE');
    expect(error.remedy).toBe(`Usage: ${usage}. Known clusters: cluster-a, cluster-b.`);
  });

  it('suggests the closest name for a typo', () => {
    const error = errorOf(() => resolveCluster(clusters, 'clster-a', 'C0OPS', usage));
    expect(error.code).toBe('UNKNOWN_CLUSTER');
    expect(error.message).toBe('Unknown cluster "clster-a". Known: cluster-a, cluster-b.');
    expect(error.remedy).toBe(`Did you mean cluster-a? Usage: ${usage}`);
    expect(errorOf(() => resolveCluster(clusters, 'prod', 'C0OPS', usage)).remedy).toBe(
      `Usage: ${usage}`,
    );
  });

  it('names only the clusters the asking channel may drive', () => {
    const elsewhere = errorOf(() => resolveCluster(clusters, undefined, 'C0OTHER', usage));
    expect(elsewhere.remedy).toBe(`Usage: ${usage}. Known clusters: cluster-b.`);
    const typo = errorOf(() => resolveCluster(clusters, 'clster-a', 'C0OTHER', usage));
    expect(typo.message).toBe('Unknown cluster "clster-a". Known: cluster-b.');
    expect(typo.remedy).toBe(`Did you mean cluster-b? Usage: ${usage}`);
    const none = errorOf(() =>
      resolveCluster([cluster('cluster-a', ['C0OPS'])], undefined, 'C0OTHER', usage),
    );
    expect(none.remedy).toBe(`Usage: ${usage}. Known clusters: none from this channel.`);
    // A terminal run (no channel) is not restricted by channels.
    const terminal = errorOf(() => resolveCluster(clusters, undefined, undefined, usage));
    expect(terminal.remedy).toBe(`Usage: ${usage}. Known clusters: cluster-a, cluster-b.`);
  });

  it('refuses channels the cluster is not allowed from, naming the allowed ones', () => {
    const error = errorOf(() => resolveCluster(clusters, 'cluster-a', 'C0OTHER', usage));
    expect(error.code).toBe('CHANNEL_NOT_ALLOWED');
    expect(error.remedy).toMatch(/^Run it from <#C0OPS>/);
    expect(channelAllowed(clusters[0]!, 'C0OTHER')).toBe(false);
  });
});

describe('editDistance', () => {
  it('counts insertions, deletions and substitutions', () => {
    expect(editDistance('clster-a', 'cluster-a')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });
});
