import { describe, expect, it } from 'vitest';
import { resolveKubeProxyConfig } from '../../../../src/node/kube-proxy/config.js';
import { configText, kubeProxyConfigMap, kubeProxyPod } from '../fixtures.js';

const resolve = (conf: string, o: Parameters<typeof kubeProxyPod>[1] = {}) =>
  resolveKubeProxyConfig(kubeProxyPod('a', o), [kubeProxyConfigMap(conf)]);

function ok(r: ReturnType<typeof resolve>) {
  if (!r.ok) throw new Error(r.error);
  return r.config;
}

describe('resolveKubeProxyConfig', () => {
  it('reads the --config file from the mounted ConfigMap and ignores config flags', () => {
    const c = ok(
      resolve(configText('ipvs'), {
        args: ['--proxy-mode=nftables', '--nodeport-addresses=0.0.0.0/0'],
      }),
    );
    expect(c.mode).toBe('ipvs');
    expect(c.source).toBe('file');
    expect(c.configMapName).toBe('kube-proxy');
    expect(c.nodePortAddresses).toEqual([]);
  });

  it('uses flags when there is no --config', () => {
    const c = ok(
      resolve('', {
        noConfig: true,
        args: ['--proxy-mode', 'nftables', '--feature-gates=KubeProxyIPVS=true', '--v=2'],
      }),
    );
    expect(c).toMatchObject({
      mode: 'nftables',
      source: 'flags',
      verbosity: 2,
      featureGates: { KubeProxyIPVS: true },
    });
    expect(c.nodePortAddresses).toEqual(['primary']);
  });

  it('treats a blank mode as iptables and remembers that it was defaulted', () => {
    const c = ok(resolve(configText('')));
    expect(c.mode).toBe('iptables');
    expect(c.modeDefaulted).toBe(true);
    expect(c.metricsBindAddress).toBe('127.0.0.1:10249');
    expect(c.healthzBindAddress).toBe('0.0.0.0:10256');
  });

  it('defaults nodePortAddresses to primary in nftables mode only', () => {
    expect(ok(resolve(configText('nftables'))).nodePortAddresses).toEqual(['primary']);
    expect(ok(resolve(configText('nftables'))).nodePortAddressesUnset).toBe(true);
    expect(ok(resolve(configText('ipvs'))).nodePortAddresses).toEqual([]);
  });

  it('maps per-mode fields: IPVS reads iptables.masqueradeBit, nftables its own section', () => {
    const extra =
      'iptables:\n  masqueradeBit: 13\nipvs:\n  syncPeriod: 45s\nnftables:\n  masqueradeBit: 15\n  syncPeriod: 1m\n';
    expect(ok(resolve(configText('ipvs', extra)))).toMatchObject({
      masqueradeBit: 13,
      syncPeriodSeconds: 45,
    });
    expect(ok(resolve(configText('nftables', extra)))).toMatchObject({
      masqueradeBit: 15,
      syncPeriodSeconds: 60,
    });
  });

  it('reads the skip-kernel-check env var and the container nft annotation', () => {
    const c = ok(
      resolve(configText('nftables'), {
        env: [{ name: 'KUBE_PROXY_NFTABLES_SKIP_KERNEL_VERSION_CHECK', value: '1' }],
        annotations: { 'twin.proxy-migrate.io/container-nft': '1.0.9' },
      }),
    );
    expect(c.skipKernelCheck).toBe(true);
    expect(c.containerNft).toBe('1.0.9');
    expect(ok(resolve(configText('nftables'))).skipKernelCheck).toBe(false);
  });

  it('keeps going on unknown fields but records the strict decoding error', () => {
    const c = ok(
      resolve(configText('nftables', 'nodePortAdresses: ["0.0.0.0/0"]\nipvs:\n  shceduler: lc\n')),
    );
    expect(c.strictDecodingError).toBe(
      'strict decoding error: unknown field "nodePortAdresses", unknown field "ipvs.shceduler"',
    );
    expect(c.nodePortAddresses).toEqual(['primary']);
  });

  it('fails on YAML errors, a missing file, a bad mode and unknown flags', () => {
    expect(resolve('mode: a: b\n')).toEqual({
      ok: false,
      plain: false,
      error:
        'failed complete: failed to decode: error converting YAML to JSON: yaml: line 1: mapping values are not allowed in this context',
    });
    expect(resolveKubeProxyConfig(kubeProxyPod('a'), [])).toEqual({
      ok: false,
      plain: false,
      error: 'failed complete: open /var/lib/kube-proxy/config.conf: no such file or directory',
    });
    expect(resolve(configText('nft'))).toMatchObject({
      ok: false,
      error:
        'failed validate: KubeProxyConfiguration.mode: Unsupported value: "nft": supported values: "iptables", "ipvs", "nftables"',
    });
    expect(resolve(configText('ipvs'), { args: ['--bogus'] })).toEqual({
      ok: false,
      plain: true,
      error: 'unknown flag: --bogus',
    });
  });

  it('unwraps sh -c command lines', () => {
    const pod = kubeProxyPod('a');
    const spec = pod['spec'] as { containers: Record<string, unknown>[] };
    spec.containers[0] = {
      ...spec.containers[0],
      command: ['/bin/sh', '-c', 'exec kube-proxy --config=/var/lib/kube-proxy/config.conf --v=4'],
    };
    const r = resolveKubeProxyConfig(pod, [kubeProxyConfigMap(configText('nftables'))]);
    expect(r.ok && r.config).toMatchObject({ mode: 'nftables', verbosity: 4 });
  });
});
