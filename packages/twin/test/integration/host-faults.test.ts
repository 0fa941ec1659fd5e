// Host faults set at run time through the twin's admin endpoint, seen through kubectl: what a
// rehearsal uses to practise the bad days (a node going NotReady, kube-proxy crash-looping).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTwin, type Twin } from '../../src/index.js';
import { kubectlOk, kubectlWith } from '../../src/testing/kubectl.js';
import { eventually } from '../../src/testing/wait.js';

let twin: Twin;
let dir: string;
let kubectl: (...args: string[]) => Promise<string>;

const hostFaults = (node: string, init: RequestInit = {}): Promise<Response> =>
  fetch(`${twin.url}/twin/hosts/${node}/faults`, {
    ...init,
    headers: { 'content-type': 'application/json' },
  });

beforeAll(async () => {
  twin = await startTwin({ scenario: 'kubeadm-ipvs', speed: 50 });
  dir = await mkdtemp(join(tmpdir(), 'pm-host-faults-'));
  await twin.writeKubeconfig(join(dir, 'kubeconfig'));
  kubectl = kubectlOk(kubectlWith(join(dir, 'kubeconfig'), dir));
});

afterAll(async () => {
  await twin.close();
  await rm(dir, { recursive: true, force: true });
});

describe('host faults at run time', () => {
  it('turns a node NotReady and back', async () => {
    const put = await hostFaults('blue-2', {
      method: 'PUT',
      body: JSON.stringify({ faults: ['not-ready'] }),
    });
    expect(put.status).toBe(200);
    expect(await put.json()).toEqual({ node: 'blue-2', faults: ['not-ready'] });
    expect(await kubectl('get', 'node', 'blue-2', '--no-headers')).toMatch(/^blue-2\s+NotReady\s/);
    expect(await (await hostFaults('blue-2')).json()).toEqual({
      node: 'blue-2',
      faults: ['not-ready'],
    });
    expect((await hostFaults('blue-2', { method: 'DELETE' })).status).toBe(200);
    expect(await kubectl('get', 'node', 'blue-2', '--no-headers')).toMatch(/^blue-2\s+Ready\s/);
  });

  it('makes the next kube-proxy on a node crash-loop with kube-proxy-crashloop', async () => {
    const put = await hostFaults('green-1', {
      method: 'PUT',
      body: JSON.stringify(['kube-proxy-crashloop']),
    });
    expect(put.status).toBe(200);
    expect(await put.json()).toEqual({ node: 'green-1', faults: ['kube-proxy-crashloop'] });
    const pods = JSON.parse(
      await kubectl(
        '-n',
        'kube-system',
        'get',
        'pods',
        '-l',
        'k8s-app=kube-proxy',
        '--field-selector',
        'spec.nodeName=green-1',
        '-o',
        'json',
      ),
    ) as { items: { metadata: { name: string } }[] };
    expect(pods.items).toHaveLength(1);
    const old = pods.items[0]!.metadata.name;
    await kubectl('-n', 'kube-system', 'delete', 'pod', old, '--wait=false');
    const row = await eventually('a crash-looping kube-proxy on green-1', async () => {
      const out = await kubectl(
        '-n',
        'kube-system',
        'get',
        'pods',
        '-o',
        'wide',
        '--no-headers',
        '--field-selector',
        'spec.nodeName=green-1',
      );
      return out
        .split('\n')
        .find(
          (l) =>
            l.startsWith('kube-proxy-') && !l.startsWith(old) && l.includes('CrashLoopBackOff'),
        );
    });
    const name = row.split(/\s+/)[0]!;
    const logs = await kubectl('-n', 'kube-system', 'logs', name, '--previous');
    expect(logs).toMatch(/^E\d{4} .*"command failed"/m);
  });

  it('answers 404 for an unknown node and 400 for an unknown fault', async () => {
    expect((await hostFaults('nope', { method: 'PUT', body: '["not-ready"]' })).status).toBe(404);
    const bad = await hostFaults('blue-1', { method: 'PUT', body: '["meteor-strike"]' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toMatch(
      /^invalid host faults: faults\[0\]/,
    );
  });
});
