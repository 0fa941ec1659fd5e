import { describe, expect, it } from 'vitest';
import { buildCheckContext } from '../../../src/checks/context.js';
import { ipvsScheduler, schedulerIntent } from '../../../src/checks/ipvs-scheduler.js';
import type { KubeService } from '../../../src/core/kube.js';
import type { ClusterSnapshot } from '../../../src/core/snapshot.js';
import { aksDaemonSet, kubeadmWith } from '../../fixtures/checks-a.js';
import { snapshotOf } from '../../fixtures/kube.js';

const run = (over: Partial<ClusterSnapshot>) =>
  ipvsScheduler.run(buildCheckContext(snapshotOf(over)));
const scheduler = (name: string) => ({
  kubeSystemConfigMaps: [kubeadmWith({ 'scheduler: rr': `scheduler: ${name}` })],
});

function svc(ns: string, name: string, spec: KubeService['spec'] = {}): KubeService {
  return {
    metadata: { namespace: ns, name },
    spec: { type: 'ClusterIP', clusterIP: '10.96.0.10', ...spec },
  };
}

const services = [
  svc('shop', 'cart', { sessionAffinity: 'ClientIP' }),
  svc('shop', 'web', { sessionAffinity: 'None' }),
  svc('kube-system', 'kube-dns'),
  svc('shop', 'db-headless', { clusterIP: 'None' }),
  svc('shop', 'external', { type: 'ExternalName' }),
];

describe('ipvs-scheduler', () => {
  it('informs on rr: nothing to replace', () => {
    const [f, ...rest] = run({});
    expect(rest).toEqual([]);
    expect(f).toMatchObject({
      check: 'ipvs-scheduler',
      severity: 'info',
      scope: { kind: 'cluster', name: 'cluster-a' },
      title: 'IPVS scheduler rr: nothing to replace, nftables picks endpoints at random',
    });
    expect(f!.detail).toContain("aren't actually useful in Kubernetes");
    expect(f!.detail).not.toContain('AKS docs');
    expect(f!.commands).toEqual([
      "kubectl -n kube-system get cm kube-proxy -o yaml | grep -A3 'ipvs:'",
    ]);
  });

  it('reads an empty scheduler as rr, as kube-proxy logs it', () => {
    const [f] = run(scheduler('""'));
    expect(f!.severity).toBe('info');
    expect(f!.detail).toContain('IPVS scheduler not specified, use rr by default');
  });

  it('warns on sh and lists the proxied Services without ClientIP affinity', () => {
    const [f] = run({ ...scheduler('sh'), services });
    expect(f).toMatchObject({ severity: 'warn', subjects: ['kube-system/kube-dns', 'shop/web'] });
    expect(f!.title).toBe(
      'IPVS scheduler sh pins clients to endpoints; 2 of 3 Service(s) lack sessionAffinity: ClientIP',
    );
    expect(f!.detail).toContain('1 Service(s) already set ClientIP');
    expect(f!.remedy).toContain('sessionAffinity: ClientIP');
    expect(f!.commands.some((c) => c.includes('select(.spec.sessionAffinity=="ClientIP")'))).toBe(
      true,
    );
    expect(f!.commands.some((c) => c.includes('timeoutSeconds: 10800'))).toBe(true);
  });

  it('warns on lc read from a flags-only kube-proxy, pointing at probes, HPA and L7', () => {
    const [f] = run({ kubeSystemDaemonSets: [aksDaemonSet()], kubeSystemConfigMaps: [] });
    expect(f!.severity).toBe('warn');
    expect(f!.title).toBe('IPVS scheduler lc balances by load; nftables mode has no equivalent');
    expect(f!.remedy).toContain('readiness probes');
    expect(f!.remedy).toContain('HPA');
    expect(f!.detail).toContain('KEP-5495');
  });

  it('warns on a scheduler with no known intent', () => {
    const [f] = run(scheduler('fo'));
    expect(f!.severity).toBe('warn');
    expect(f!.title).toBe('IPVS scheduler fo has no nftables equivalent');
  });

  it('is quiet when kube-proxy does not run IPVS', () => {
    expect(
      run({ kubeSystemConfigMaps: [kubeadmWith({ 'mode: ipvs': 'mode: iptables' })] }),
    ).toEqual([]);
  });

  it('classifies every IPVS scheduler by what it did to a kube-proxy Service', () => {
    expect(
      ['sh', 'lblc', 'lblcr', 'mh', 'lc', 'wlc', 'sed', 'nq', 'rr', 'wrr', 'dh', 'ovf'].map(
        schedulerIntent,
      ),
    ).toEqual([
      'stickiness',
      'pinned',
      'pinned',
      'none',
      'load',
      'load',
      'load',
      'load',
      'none',
      'none',
      'pinned',
      'other',
    ]);
  });

  it('mh (always run with mh-port) asks for no sessionAffinity: it hashes source IP and port', () => {
    const [f, ...rest] = run({ ...scheduler('mh'), services });
    expect(rest).toEqual([]);
    expect(f).toMatchObject({ severity: 'info', subjects: [] });
    expect(f!.title).toBe(
      'IPVS scheduler mh: nothing to replace, nftables picks endpoints at random',
    );
    expect(f!.detail).toContain('always sets the mh-port flag');
    expect(f!.detail).toContain('source IP and port');
    expect(f!.detail).toContain('No Service needs sessionAffinity because of mh');
    expect(f!.remedy).toBeUndefined();
    expect(f!.commands.join('\n')).not.toContain('sessionAffinity');
  });

  it('dh pins each Service to one backend per node: warns that random selection changes the load', () => {
    const [f] = run({ ...scheduler('dh'), services });
    expect(f).toMatchObject({ severity: 'warn' });
    expect(f!.title).toBe(
      "IPVS scheduler dh sends each Service's connections on a node to one backend; nftables spreads them at random",
    );
    expect(f!.detail).toContain(
      'every connection to a Service from one node goes to a single backend',
    );
    expect(f!.detail).toContain('It does not spread connections');
    expect(f!.detail).toContain('not a no-op');
    expect(f!.detail).not.toContain('encodes no intent');
    expect(f!.remedy).toContain('sessionAffinity: ClientIP does not restore it');
  });

  it.each(['lblc', 'lblcr'])(
    '%s is destination locality, not client affinity: no sessionAffinity advice',
    (name) => {
      const [f] = run({ ...scheduler(name), services });
      expect(f).toMatchObject({ severity: 'warn', subjects: [] });
      expect(f!.detail).toContain('destination locality, not client affinity');
      expect(f!.title).not.toContain('pins clients');
      expect(f!.commands.join('\n')).not.toContain('patch svc');
    },
  );
});
