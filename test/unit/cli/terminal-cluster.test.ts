// Which cluster a terminal command works on, and what a bad kubeconfig or clusters file exits
// with (78, configuration) before any work starts.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { clusterNameOf, resolveTerminalCluster } from '../../../src/cli/terminal-cluster.js';
import type { CliIo } from '../../../src/cli/types.js';

const dir = mkdtempSync(join(tmpdir(), 'pm-terminal-cluster-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const kubeconfig = join(dir, 'kubeconfig');
writeFileSync(
  kubeconfig,
  `apiVersion: v1
kind: Config
current-context: kind-blue
clusters:
  - name: blue
    cluster: { server: https://127.0.0.1:6443 }
  - name: eks
    cluster: { server: https://127.0.0.1:6444 }
users:
  - name: u
    user: { token: t }
contexts:
  - name: kind-blue
    context: { cluster: blue, user: u }
  - name: arn:aws:eks:eu-west-1:123456789012:cluster/Prod_EU
    context: { cluster: eks, user: u }
`,
);
const broken = join(dir, 'broken');
writeFileSync(broken, 'clusters: [\n');

function io(env: Record<string, string> = {}) {
  const out = { stderr: '' };
  const streams: CliIo = {
    stdout: { write: () => true } as unknown as NodeJS.WritableStream,
    stderr: { write: (s: string) => ((out.stderr += s), true) } as unknown as NodeJS.WritableStream,
    env: { HOME: dir, ...env },
  };
  return { streams, out };
}

const usage = 'proxy-migrate status [<cluster>]';

describe('clusterNameOf', () => {
  it.each([
    ['kind-blue', 'kind-blue'],
    ['arn:aws:eks:eu-west-1:123456789012:cluster/Prod_EU', 'prod-eu'],
    [
      'a-very-long-context-name-from-some-platform-tool-eu-west',
      'ext-name-from-some-platform-tool-eu-west',
    ],
    ['gke_my-project_europe-west1-b_prod', 'gke-my-project-europe-west1-b-prod'],
    ['___', 'kubeconfig'],
  ])('%s → %s', (context, name) => {
    expect(clusterNameOf(context)).toBe(name);
    expect(name).toMatch(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/);
    expect(name.length).toBeLessThanOrEqual(40);
  });
});

describe('resolveTerminalCluster', () => {
  it('names a left-out cluster after --context', () => {
    const { streams } = io();
    const got = resolveTerminalCluster(streams, {
      cluster: undefined,
      kubeconfig,
      context: 'arn:aws:eks:eu-west-1:123456789012:cluster/Prod_EU',
      usage,
    });
    expect(got).toMatchObject({
      ok: true,
      cluster: {
        name: 'prod-eu',
        context: 'arn:aws:eks:eu-west-1:123456789012:cluster/Prod_EU',
      },
    });
  });

  it("names it after the kubeconfig's current context with --kubeconfig alone", () => {
    const { streams } = io();
    const got = resolveTerminalCluster(streams, { cluster: undefined, kubeconfig, usage });
    expect(got).toMatchObject({ ok: true, cluster: { name: 'kind-blue', kubeconfig } });
  });

  it('keeps a cluster that is given', () => {
    const { streams } = io();
    const got = resolveTerminalCluster(streams, { cluster: 'mine', kubeconfig, usage });
    expect(got).toMatchObject({ ok: true, cluster: { name: 'mine' } });
  });

  it.each([
    [
      'a kubeconfig that does not exist',
      { kubeconfig: join(dir, 'nope') },
      'cannot load kubeconfig',
    ],
    ['a kubeconfig that is not YAML', { kubeconfig: broken }, 'cannot load kubeconfig'],
    ['a context it does not have', { kubeconfig, context: 'nope' }, 'context "nope" is not in'],
  ])('exits 78 for %s', (_what, flags, message) => {
    const { streams, out } = io();
    expect(resolveTerminalCluster(streams, { cluster: 'c', ...flags, usage })).toEqual({
      ok: false,
      code: 78,
    });
    expect(out.stderr).toContain(message);
  });

  it('exits 78 for a clusters file whose kubeconfig is bad, 64 for an unknown cluster', () => {
    const clusters = join(dir, 'clusters.yaml');
    writeFileSync(
      clusters,
      `clusters:\n  - name: cluster-a\n    kubeconfig: ${join(dir, 'nope')}\n    context: x\n`,
    );
    const bad = io({ CLUSTERS_FILE: clusters });
    expect(resolveTerminalCluster(bad.streams, { cluster: 'cluster-a', usage })).toEqual({
      ok: false,
      code: 78,
    });
    expect(bad.out.stderr).toContain('cannot load kubeconfig');
    const unknown = io({ CLUSTERS_FILE: clusters });
    expect(resolveTerminalCluster(unknown.streams, { cluster: 'cluster-z', usage })).toEqual({
      ok: false,
      code: 64,
    });
  });
});
