// The real kubectl against the twin's pods/exec (WebSocket v5, SPDY fallback errors) and pods/log
// (tail, timestamps, previous, follow, logs ds/…), with stub exec and log providers.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resourceFor } from '../../../src/index.js';
import { eventually } from '../../../src/testing/wait.js';
import type { Harness } from './harness.js';
import { StubLogs, createRunningPod, kubectlStream, startHarness, stubExec } from './harness.js';

let h: Harness;
const logs = new StubLogs();
const ns = ['-n', 'kube-system'];
const pods = resourceFor('pods');

beforeAll(async () => {
  h = await startHarness({ exec: stubExec, logs: logs.provider, execTimeoutSeconds: 2 });
  createRunningPod(h.registry, 'kp-1');
  createRunningPod(h.registry, 'multi', ['main', 'side']);
  for (const text of ['line one', 'line two', 'line three'])
    logs.append('kp-1', 'kube-proxy', text);
});

afterAll(async () => {
  await h.close();
});

/** kubectl with `input` on its stdin; killed after 20 s, and whenever the test stops waiting. */
async function withStdin(
  input: string,
  ...args: string[]
): Promise<{ code: number | null; out: string }> {
  const child = spawn('kubectl', args, { env: h.env, timeout: 20_000 });
  try {
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    const code = await new Promise<number | null>((resolve, reject) => {
      child.on('error', reject);
      child.on('exit', resolve);
      child.stdin.end(input);
    });
    return { code, out };
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}

describe('kubectl exec', () => {
  it('runs a command and prints its stdout', async () => {
    const r = await h.kubectl('exec', ...ns, 'kp-1', '--', 'echo', 'hi');
    expect(r).toEqual({ code: 0, stdout: 'hi\n', stderr: '' });
  });

  it('turns a non-zero exit into kubectl’s exit code', async () => {
    const r = await h.kubectl('exec', ...ns, 'kp-1', '--', 'exit', '3');
    expect(r.code).toBe(3);
    expect(r.stderr).toBe('exiting 3\ncommand terminated with exit code 3\n');
  });

  it('prints stderr and exit 127 for a command the provider does not know', async () => {
    const r = await h.kubectl('exec', ...ns, 'kp-1', '--', 'ipvsadm', '-Ln');
    expect(r.code).toBe(127);
    expect(r.stderr).toContain('ipvsadm: command not found');
  });

  it('rejects an unknown container on the upgrade and the SPDY retry', async () => {
    const r = await h.kubectl('exec', ...ns, 'kp-1', '-c', 'nope', '--', 'echo', 'hi');
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'Error from server (BadRequest): container nope is not valid for pod kp-1\n',
    );
  });

  it('reports a missing pod and a pod that is not running', async () => {
    const missing = await h.kubectl('exec', ...ns, 'nx', '--', 'echo');
    expect(missing.stderr).toContain('pods "nx" not found');
    h.registry.create(pods, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'pending', namespace: 'kube-system' },
      spec: { nodeName: 'cp-1', containers: [{ name: 'kube-proxy', image: 'x' }] },
    });
    // The apiserver's stream translator upgrades, then relays the kubelet's refusal.
    const pending = await h.kubectl('exec', ...ns, 'pending', '--', 'echo');
    expect(pending).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'error: Internal error occurred: unable to upgrade connection: container not found ("kube-proxy")\n',
    });
  });

  it('ends a command that outlives the deadline with a Failure status', async () => {
    const r = await h.kubectl('exec', ...ns, 'kp-1', '--', 'sleep');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('did not finish within 2s');
  });

  it('passes stdin through and closes it at EOF (-i)', async () => {
    const r = await withStdin('from stdin\n', 'exec', '-i', ...ns, 'kp-1', '--', 'cat');
    expect(r).toEqual({ code: 0, out: 'from stdin\n' });
  });

  it('defaults the container and needs -c only when kubectl cannot choose', async () => {
    const r = await h.kubectl('exec', ...ns, 'multi', '--', 'echo', 'multi');
    expect(r.stdout).toBe('multi\n');
    expect(r.stderr).toContain('Defaulted container "main" out of: main, side');
  });
});

describe('kubectl logs', () => {
  it('prints the log, a tail, and timestamps', async () => {
    expect((await h.kubectl('logs', ...ns, 'kp-1')).stdout).toBe(
      'line one\nline two\nline three\n',
    );
    expect((await h.kubectl('logs', ...ns, 'kp-1', '--tail=2')).stdout).toBe(
      'line two\nline three\n',
    );
    const stamped = (await h.kubectl('logs', ...ns, 'kp-1', '--timestamps')).stdout;
    expect(stamped.split('\n')[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z line one$/);
  });

  it('serves the previous container or the kubelet error', async () => {
    const none = await h.kubectl('logs', ...ns, 'kp-1', '--previous');
    expect(none.code).toBe(1);
    expect(none.stderr).toBe(
      'Error from server (BadRequest): previous terminated container "kube-proxy" in pod "kp-1" not found\n',
    );
    // The pod's status says whether a previous container exists; its log is the provider's.
    logs.previous.set('kp-1/kube-proxy', [{ time: Date.now(), text: 'crashed' }]);
    expect((await h.kubectl('logs', ...ns, 'kp-1', '-p')).code).toBe(1);
    createRunningPod(h.registry, 'kp-restarted', ['kube-proxy'], { restarted: true });
    logs.previous.set('kp-restarted/kube-proxy', [{ time: Date.now(), text: 'crashed' }]);
    expect((await h.kubectl('logs', ...ns, 'kp-restarted', '-p')).stdout).toBe('crashed\n');
  });

  it('follows appended lines until the pod is deleted (-f)', async () => {
    createRunningPod(h.registry, 'kp-follow');
    logs.append('kp-follow', 'kube-proxy', 'before');
    const run = kubectlStream(h.env, 'logs', '-f', ...ns, 'kp-follow');
    await run.waitFor('before\n');
    logs.append('kp-follow', 'kube-proxy', 'after start');
    await run.waitFor('after start\n');
    h.registry.delete(pods, 'kube-system', 'kp-follow', { gracePeriodSeconds: 0 });
    expect(await run.exit).toBe(0);
    expect(run.stdout()).toBe('before\nafter start\n');
  });

  it('stops following when kubectl goes away', async () => {
    createRunningPod(h.registry, 'kp-kill');
    const run = kubectlStream(h.env, 'logs', '-f', ...ns, 'kp-kill');
    logs.append('kp-kill', 'kube-proxy', 'hello');
    await run.waitFor('hello\n');
    run.child.kill('SIGTERM');
    await run.exit;
    await eventually(
      'the follower unsubscribed',
      () => (logs.subscribers('kp-kill', 'kube-proxy') > 0 ? undefined : true),
      5000,
    );
    expect(logs.subscribers('kp-kill', 'kube-proxy')).toBe(0);
  });

  it('reads the log of a DaemonSet’s pod (logs ds/kube-proxy)', async () => {
    const ds = h.registry.store.get(resourceFor('daemonsets'), 'kube-system', 'kube-proxy')!;
    const owner = {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      name: 'kube-proxy',
      uid: ds.metadata.uid ?? '',
      controller: true,
      blockOwnerDeletion: true,
    };
    for (const name of ['kube-proxy-aaaaa', 'kube-proxy-bbbbb']) {
      createRunningPod(h.registry, name, ['kube-proxy'], {
        labels: { 'k8s-app': 'kube-proxy' },
        ownerReferences: [owner],
      });
      logs.append(name, 'kube-proxy', `I am ${name}`);
    }
    const r = await h.kubectl('logs', 'ds/kube-proxy', ...ns);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^I am kube-proxy-(aaaaa|bbbbb)\n$/);
    expect(r.stderr).toMatch(/Found 2 pods, using pod\/kube-proxy-/);
    const e = await h.kubectl('exec', 'ds/kube-proxy', ...ns, '--', 'echo', 'via ds');
    expect(e.stdout).toBe('via ds\n');
  });
});
