import { describe, expect, it } from 'vitest';
import {
  findKubeProxyDaemonSet,
  kubeProxyContainer,
  parseFlags,
  parseKubeProxyConfiguration,
  resolveConfigSource,
  resolveMode,
} from '../../../src/core/kube-proxy-config.js';
import { eksDaemonSet, kubeadmConfig, kubeadmDaemonSet } from '../../fixtures/kube.js';

describe('parseFlags', () => {
  it('reads Go-style flags in all their spellings', () => {
    const flags = parseFlags([
      'kube-proxy',
      '--config=/a',
      '-v',
      '2',
      '--proxy-mode',
      'ipvs',
      '--cleanup',
      '--x=1',
      '--x=2',
    ]);
    expect(Object.fromEntries(flags)).toEqual({
      config: '/a',
      v: '2',
      'proxy-mode': 'ipvs',
      cleanup: 'true',
      x: '2',
    });
  });
});

describe('resolveConfigSource', () => {
  it('follows kubeadm’s --config to the kube-proxy ConfigMap key config.conf', () => {
    const ds = kubeadmDaemonSet();
    const container = kubeProxyContainer(ds)!;
    expect(resolveConfigSource(ds, container, parseFlags(container.command!))).toEqual({
      kind: 'configmap',
      path: '/var/lib/kube-proxy/config.conf',
      configMap: 'kube-proxy',
      key: 'config.conf',
    });
  });

  it('follows EKS’s mount (trailing slash) to kube-proxy-config key config', () => {
    const ds = eksDaemonSet();
    const container = kubeProxyContainer(ds)!;
    expect(resolveConfigSource(ds, container, parseFlags(container.command!))).toMatchObject({
      configMap: 'kube-proxy-config',
      key: 'config',
    });
  });

  it('honours ConfigMap items that rename keys', () => {
    const ds = kubeadmDaemonSet();
    ds.spec!.template!.spec!.volumes![0] = {
      name: 'kube-proxy',
      configMap: { name: 'proxy-cfg', items: [{ key: 'kube-proxy.yaml', path: 'config.conf' }] },
    };
    const container = kubeProxyContainer(ds)!;
    expect(resolveConfigSource(ds, container, parseFlags(container.command!))).toMatchObject({
      configMap: 'proxy-cfg',
      key: 'kube-proxy.yaml',
    });
  });

  it('says why when the config file is not on a ConfigMap volume', () => {
    const ds = kubeadmDaemonSet();
    const container = {
      ...kubeProxyContainer(ds)!,
      command: ['kube-proxy', '--config=/etc/kp/config.yaml'],
    };
    expect(resolveConfigSource(ds, container, parseFlags(container.command))).toEqual({
      kind: 'unresolved',
      path: '/etc/kp/config.yaml',
      reason: 'no volume of the kube-proxy container is mounted at /etc/kp/config.yaml',
    });
  });

  it('reports flag-only configuration', () => {
    const ds = kubeadmDaemonSet();
    expect(
      resolveConfigSource(
        ds,
        kubeProxyContainer(ds)!,
        parseFlags(['kube-proxy', '--proxy-mode=ipvs']),
      ),
    ).toEqual({
      kind: 'flags',
    });
  });
});

describe('resolveMode', () => {
  const config = (mode: string | undefined) => ({ ...(mode === undefined ? {} : { mode }) });

  it('takes the mode from the config file and lists flags it makes no-ops', () => {
    const flags = parseFlags(['--config=/x', '--proxy-mode=nftables']);
    expect(resolveMode(flags, config('ipvs'))).toEqual({
      configured: 'ipvs',
      effective: 'ipvs',
      source: 'config-file',
      ignoredFlags: ['--proxy-mode=nftables'],
    });
  });

  it('lists every known config flag but --hostname-override, which kube-proxy honours', () => {
    const flags = parseFlags([
      '--config=/x',
      '--hostname-override=$(NODE_NAME)',
      '--ipvs-sync-period=5s',
      '--conntrack-max-per-core=0',
      '--v=2',
    ]);
    expect(resolveMode(flags, config('ipvs')).ignoredFlags).toEqual([
      '--ipvs-sync-period=5s',
      '--conntrack-max-per-core=0',
    ]);
  });

  it('treats a blank or missing mode as iptables, the Linux default', () => {
    const flags = parseFlags(['--config=/x']);
    expect(resolveMode(flags, config(''))).toMatchObject({
      configured: '',
      effective: 'iptables',
      source: 'default',
    });
    expect(resolveMode(flags, config(undefined))).toMatchObject({
      configured: undefined,
      effective: 'iptables',
    });
  });

  it('flags an unknown mode and reads --proxy-mode when there is no config file', () => {
    expect(resolveMode(parseFlags(['--config=/x']), config('userspace')).effective).toBe('unknown');
    expect(resolveMode(parseFlags(['--proxy-mode=ipvs']), undefined)).toMatchObject({
      effective: 'ipvs',
      source: 'flag',
    });
  });
});

describe('parseKubeProxyConfiguration', () => {
  it('parses kubeadm’s rendered configuration', () => {
    const parsed = parseKubeProxyConfiguration(kubeadmConfig);
    expect(parsed.ok && parsed.config.mode).toBe('ipvs');
    expect(parsed.ok && parsed.config.ipvs).toMatchObject({ scheduler: 'rr', strictARP: true });
  });

  it('rejects YAML errors, non-mappings and other kinds with a reason', () => {
    expect(parseKubeProxyConfiguration('mode: [')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^not valid YAML/),
    });
    expect(parseKubeProxyConfiguration('- a')).toEqual({ ok: false, error: 'not a YAML mapping' });
    expect(parseKubeProxyConfiguration('kind: KubeletConfiguration')).toMatchObject({ ok: false });
  });
});

describe('findKubeProxyDaemonSet', () => {
  it('finds kube-proxy and never mistakes the nftables canary for it', () => {
    const canary = {
      metadata: { name: 'kube-proxy-nftables', labels: { 'k8s-app': 'kube-proxy' } },
    };
    const renamed = { metadata: { name: 'proxy', labels: { 'k8s-app': 'kube-proxy' } } };
    expect(findKubeProxyDaemonSet([canary, kubeadmDaemonSet()])?.metadata.name).toBe('kube-proxy');
    expect(findKubeProxyDaemonSet([canary, renamed])?.metadata.name).toBe('proxy');
    expect(findKubeProxyDaemonSet([canary])).toBeUndefined();
  });
});
