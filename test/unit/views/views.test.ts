// Snapshot tests of what people see, plus a check that every rendered message is one Slack accepts.
import { describe, expect, it } from 'vitest';
import { verbs } from '../../../src/commands/index.js';
import { clusterConfig, type ClusterConfig } from '../../../src/config.js';
import { AppError } from '../../../src/errors.js';
import type { ChatMessage } from '../../../src/ports/chat.js';
import { clustersMessage } from '../../../src/views/clusters.js';
import { errorReply } from '../../../src/views/errors.js';
import { helpMessage } from '../../../src/views/help.js';
import { preflightFailedCard, preflightGatheringCard } from '../../../src/views/preflight.js';
import { checkBlocks } from '../../fakes/slack-limits.js';

function accepted(message: ChatMessage): ChatMessage {
  expect(checkBlocks(message.blocks ?? [])).toBeUndefined();
  expect(message.text.length).toBeGreaterThan(0);
  return message;
}

const meta = {
  runId: 'pf-261129140200-abc123',
  requestedBy: 'U0ALICE',
  requestedAt: '2026-11-29T14:02:00.000Z',
};

function cluster(name: string, over: Partial<ClusterConfig> = {}): ClusterConfig {
  return {
    ...clusterConfig({
      name,
      context: `ctx-${name}`,
      approvers: { users: ['U0BOB'], groups: ['S0SRE'] },
    }),
    ...over,
  };
}

describe('views', () => {
  it('help lists every verb', () => {
    expect(accepted(helpMessage(verbs))).toMatchSnapshot();
  });

  it('clusters shows only what this channel may drive, with channels and approvers', () => {
    const all = [
      cluster('cluster-a', { channels: ['C0OPS'] }),
      cluster('cluster-b', { channels: ['C0OTHER'], fourEyes: false }),
      cluster('cluster-c', { fourEyes: false }),
    ];
    const messages = clustersMessage(all, 'C0OPS');
    expect(messages).toHaveLength(1);
    expect(accepted(messages[0]!)).toMatchSnapshot();
    expect(JSON.stringify(messages)).not.toMatch(/cluster-b|C0OTHER/);
  });

  it('clusters from a channel that may drive none says so and shows no cluster', () => {
    const messages = clustersMessage([cluster('cluster-a', { channels: ['C0OPS'] })], 'C0ELSE');
    expect(messages).toHaveLength(1);
    expect(accepted(messages[0]!)).toMatchSnapshot();
    expect(JSON.stringify(messages)).not.toMatch(/cluster-a|C0OPS|U0BOB/);
  });

  it('errors are one sentence, a remedy and the code', () => {
    const error = new AppError('UNKNOWN_CLUSTER', 'Unknown cluster "<!channel>".', {
      remedy: 'Run it from <#C0OPS>. Usage: /proxy-migrate preflight <cluster>',
    });
    expect(accepted(errorReply(error))).toMatchSnapshot();
  });

  it('pre-flight cards while reading and on failure', () => {
    expect(accepted(preflightGatheringCard('cluster-a', meta))).toMatchSnapshot();
    const failure = new AppError(
      'K8S_UNREACHABLE',
      'Cluster cluster-a: the API server is unreachable (ECONNREFUSED).',
      { remedy: 'Check the server address in the kubeconfig.' },
    );
    expect(accepted(preflightFailedCard('cluster-a', failure, meta, false))).toMatchSnapshot();
  });
});
