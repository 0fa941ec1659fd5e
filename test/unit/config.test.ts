import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseClustersFile } from '../../src/config.js';

const goodEnv = {
  SLACK_BOT_TOKEN: 'xoxb-1-2-abc',
  SLACK_SIGNING_SECRET: '8f742231b10e8888abcd99yyyzzz85a5'.replace(/[yz]/g, 'a'),
  CLUSTERS_FILE: '/etc/proxy-migrate/clusters.yaml',
};

const clustersYaml = `
clusters:
  - name: cluster-a
    kubeconfig: ./kube/a.yaml
    context: prod-a
    channels: [C0123456789]
    approvers: { users: [U0123456789], groups: [S0123456789] }
  - name: cluster-b
    inCluster: true
    fourEyes: false
    approvalTtlMinutes: 10
`;

function problemsOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('applies defaults and resolves kubeconfig paths against the clusters file', () => {
    const config = loadConfig(goodEnv, 'bot', () => clustersYaml);
    expect(config.port).toBe(3000);
    expect(config.redisUrl).toBe('redis://127.0.0.1:6379');
    expect(config.logLevel).toBe('info');
    expect(config.slack?.botToken).toBe('xoxb-1-2-abc');
    const [a, b] = config.clusters;
    expect(a).toMatchObject({
      name: 'cluster-a',
      kubeconfig: '/etc/proxy-migrate/kube/a.yaml',
      context: 'prod-a',
      fourEyes: true,
      approvalTtlMinutes: 30,
      migrationLabel: 'proxy-migrate.io/mode',
      probe: { namespace: 'proxy-migrate-probes' },
    });
    expect(b).toMatchObject({
      name: 'cluster-b',
      inCluster: true,
      fourEyes: false,
      approvalTtlMinutes: 10,
    });
    expect(b?.approvers).toEqual({ users: [], groups: [] });
  });

  it('lists every bad key at once, each with how to fix it', () => {
    const problems = problemsOf(() =>
      loadConfig(
        {
          SLACK_BOT_TOKEN: 'xoxp-user-token',
          PORT: '99999',
          LOG_LEVEL: 'loud',
          REDIS_URL: 'http://x',
        },
        'bot',
        () => clustersYaml,
      ),
    );
    expect(problems.join('\n')).toMatch(/SLACK_BOT_TOKEN: must be the Bot User OAuth Token/);
    expect(problems.join('\n')).toMatch(/PORT: must be between 0 and 65535/);
    expect(problems.join('\n')).toMatch(/LOG_LEVEL: must be one of fatal, error/);
    expect(problems.join('\n')).toMatch(/REDIS_URL: must look like redis:\/\//);
  });

  it('requires Slack settings for the bot but not for terminal runs', () => {
    const problems = problemsOf(() => loadConfig({}, 'bot', () => clustersYaml));
    expect(problems).toEqual([
      expect.stringMatching(/^SLACK_BOT_TOKEN: required/),
      expect.stringMatching(/^SLACK_SIGNING_SECRET: required in HTTP mode/),
    ]);
    expect(loadConfig({}, 'cli', () => clustersYaml).slack).toBeUndefined();
    expect(
      loadConfig(
        { SLACK_BOT_TOKEN: 'xoxb-1', SLACK_APP_TOKEN: 'xapp-1' },
        'bot',
        () => clustersYaml,
      ).slack,
    ).toMatchObject({ appToken: 'xapp-1' });
  });

  it('lets a bot run without an in-process worker, but not a worker without one', () => {
    const env = { ...goodEnv, WORKER_CONCURRENCY: '0' };
    expect(loadConfig(env, 'bot', () => clustersYaml).workerConcurrency).toBe(0);
    expect(problemsOf(() => loadConfig(env, 'worker', () => clustersYaml))).toEqual([
      expect.stringMatching(/^WORKER_CONCURRENCY: must be at least 1 for a worker/),
    ]);
  });

  it('takes SLACK_APP_ID when set and checks its shape; unset, there is none', () => {
    const load = (env: Record<string, string>) =>
      loadConfig({ ...goodEnv, ...env }, 'bot', () => clustersYaml);
    expect(load({ SLACK_APP_ID: 'A0123ABC' }).slack?.appId).toBe('A0123ABC');
    expect(load({}).slack).not.toHaveProperty('appId');
    expect(load({ SLACK_APP_ID: '' }).slack).not.toHaveProperty('appId');
    expect(problemsOf(() => load({ SLACK_APP_ID: 'proxy-migrate' }))).toEqual([
      expect.stringMatching(/^SLACK_APP_ID: must be the App ID/),
    ]);
  });

  it('reports an unreadable clusters file together with env problems', () => {
    const problems = problemsOf(() =>
      loadConfig({ ...goodEnv, PORT: 'abc' }, 'bot', () => {
        throw Object.assign(new Error('nope'), { code: 'ENOENT' });
      }),
    );
    expect(problems).toHaveLength(2);
    expect(problems[1]).toMatch(
      /CLUSTERS_FILE: cannot read \/etc\/proxy-migrate\/clusters.yaml \(ENOENT\)/,
    );
  });

  it('splits KUBECONFIG into the default kubeconfig list', () => {
    const config = loadConfig({ ...goodEnv, KUBECONFIG: '/a:/b' }, 'bot', () => clustersYaml);
    expect(config.defaultKubeconfigs).toEqual(['/a', '/b']);
  });
});

describe('parseClustersFile', () => {
  it('names each bad key by its path with the fix', () => {
    const problems = problemsOf(() =>
      parseClustersFile(
        `clusters:
  - name: Cluster_A
    channels: [general]
    approvers: { users: [alice], groups: ["@sre"] }
    fourEye: true
  - name: b
    inCluster: true
    context: x
  - name: b
`,
        '/x/clusters.yaml',
      ),
    );
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^\/x\/clusters.yaml.clusters\[0\].name: must be lower-case/),
        expect.stringMatching(/clusters\[0\].channels\[0\]: must be a Slack channel id/),
        expect.stringMatching(/clusters\[0\].approvers.users\[0\]: must be a Slack member id/),
        expect.stringMatching(/clusters\[0\].approvers.groups\[0\]: must be a Slack user-group id/),
        expect.stringMatching(/clusters\[0\]: Unrecognized key: "fourEye"/),
        expect.stringMatching(/clusters\[1\]: inCluster: true cannot be combined/),
        expect.stringMatching(/clusters\[2\].name: duplicate cluster name "b"/),
      ]),
    );
  });

  it('reports YAML syntax errors with the file name', () => {
    const problems = problemsOf(() => parseClustersFile('clusters: [\n  - a', 'c.yaml'));
    expect(problems[0]).toMatch(/^c.yaml: YAML /);
  });

  it('rejects an empty list', () => {
    expect(problemsOf(() => parseClustersFile('clusters: []', 'c.yaml'))[0]).toMatch(
      /list at least one cluster/,
    );
  });
});

describe('examples/clusters.yaml', () => {
  it('is a valid clusters file showing every key', async () => {
    const { readFile } = await import('node:fs/promises');
    const path = new URL('../../examples/clusters.yaml', import.meta.url).pathname;
    const clusters = parseClustersFile(await readFile(path, 'utf8'), path);
    expect(clusters.map((c) => c.name)).toEqual(['cluster-a', 'cluster-b']);
    expect(clusters[0]).toMatchObject({
      poolLabel: 'node-pool',
      approvers: { groups: ['S0123456789'] },
    });
  });
});
