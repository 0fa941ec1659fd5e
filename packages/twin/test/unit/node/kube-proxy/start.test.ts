import { describe, expect, it } from 'vitest';
import {
  cluster,
  configText,
  kubeProxyConfigMap,
  kubeProxyPod,
  sh,
  startAll,
  t0,
} from '../fixtures.js';

const klogLine = /^[IWE]\d{4} \d{2}:\d{2}:\d{2}\.\d{6} {7}1 [a-z_]+\.go:\d+\] /;

describe('kube-proxy startup order', () => {
  it('kernel 5.4 + nftables on v1.33: IPVS state is cleaned, then the kernel check fails', () => {
    const m = cluster();
    startAll(m, ['old'], configText('ipvs'));
    expect(sh(m, 'old', 'ipvsadm -Ln').stdout.split('\n').length).toBeGreaterThan(4);
    const r = m.podStarted(
      'old',
      kubeProxyPod('old'),
      [kubeProxyConfigMap(configText('nftables'))],
      t0 + 60_000,
    );
    expect(r).toMatchObject({ running: false, phase: 'failed', exitCode: 1, reason: 'Error' });
    const err =
      'unable to create proxier: unable to create ipv4 proxier: kube-proxy in nftables mode requires kernel 5.13 or later';
    expect(r.logs.at(-2)).toMatch(
      /^E1129 14:03:03\.\d{6} {7}1 server\.go:\d+\] "Error running ProxyServer" err="/,
    );
    expect(r.logs.at(-2)).toContain(`"Error running ProxyServer" err="${err}"`);
    expect(r.logs.at(-1)).toMatch(/ run\.go:72\] "command failed" err="unable to create proxier: /);
    expect(r.logs.every((l) => klogLine.test(l))).toBe(true);
    expect(sh(m, 'old', 'ipvsadm -Ln').stdout).toBe(
      'IP Virtual Server version 1.2.1 (size=4096)\nProt LocalAddress:Port Scheduler Flags\n  -> RemoteAddress:Port           Forward Weight ActiveConn InActConn\n',
    );
    expect(sh(m, 'old', 'ip link show kube-ipvs0').exitCode).toBe(1);
    expect(sh(m, 'old', 'nft list table ip kube-proxy').exitCode).toBe(1);
    expect(m.probe('old', { ip: '10.96.10.10', port: 80 }).outcome).toBe('timeout');
    expect(m.logs('old', 'kube-proxy-old')).toEqual(r.logs);
    expect(
      m.logs('old', 'kube-proxy-old', true).some((l) => l.includes('Using ipvs Proxier')),
    ).toBe(true);
  });

  it('v1.32 without the env var: the inverted check does not run and nftables rules get written', () => {
    const m = cluster();
    startAll(m, ['old'], configText('nftables'), { version: 'v1.32.3' });
    expect(m.kubeProxy('old')?.phase).toBe('running');
    expect(sh(m, 'old', 'nft list table ip kube-proxy').stdout).toContain('map service-ips {');
    expect(m.probe('old', { ip: '10.96.10.10', port: 80 }).ok).toBe(true);
  });

  it('v1.32 with the env var set: the kernel check runs (and fails)', () => {
    const m = cluster();
    const env = [{ name: 'KUBE_PROXY_NFTABLES_SKIP_KERNEL_VERSION_CHECK', value: '1' }];
    startAll(m, ['old'], configText('nftables'), { version: 'v1.32.3', env });
    expect(m.kubeProxy('old')?.error).toBe(
      'kube-proxy in nftables mode requires kernel 5.13 or later',
    );
    startAll(m, ['old'], configText('nftables'), { version: 'v1.33.4', env });
    expect(m.kubeProxy('old')?.phase).toBe('running');
  });

  it('checks the nft in the kube-proxy image (not the host’s) before the kernel', () => {
    // The host's old nft does not stop kube-proxy (its image ships a newer one), so on this
    // 5.4 host it is the kernel check that fails, as on a real node.
    const m = cluster([{ match: 'old', nft: '0.9.3' }]);
    startAll(m, ['old'], configText('nftables'));
    expect(m.kubeProxy('old')?.error).toBe(
      'kube-proxy in nftables mode requires kernel 5.13 or later',
    );
    startAll(m, ['a'], configText('nftables'), {
      annotations: { 'twin.proxy-migrate.io/container-nft': '1.0.0' },
    });
    expect(m.kubeProxy('a')?.error).toBe(
      'nft version must be v1.0.1 or later (got nftables v1.0.0 (Fearless Fosdick #2))',
    );
  });

  it('logs the real success lines', () => {
    const m = cluster();
    startAll(m, ['a'], configText(''));
    const logs = m.logs('a', 'kube-proxy-a');
    expect(logs[0]).toMatch(
      /^I1129 14:02:03\.\d{6} {7}1 server_linux\.go:\d+\] "Using iptables proxy"$/,
    );
    expect(logs.join('\n')).toContain(
      '"Kube-proxy configuration may be incomplete or incorrect" err="nodePortAddresses is unset; NodePort connections will be accepted on all local IPs. Consider using `--nodeport-addresses primary`"',
    );
    expect(logs.join('\n')).toContain(
      '"kube-proxy running in dual-stack mode" primary ipFamily="IPv4"',
    );
    expect(logs.join('\n')).toContain('] "Using iptables Proxier"');
    expect(logs.join('\n')).toContain(
      '"Setting route_localnet=1 to allow node-ports on localhost;',
    );
    expect(sh(m, 'a', 'sysctl -n net.ipv4.conf.all.route_localnet').stdout).toBe('1\n');
  });

  it('IPVS: scheduler default line, no deprecation before v1.35, E line + event from v1.35', () => {
    const m = cluster();
    startAll(m, ['a'], configText('ipvs'));
    const logs = m.logs('a', 'kube-proxy-a').join('\n');
    expect(logs).toContain('"IPVS scheduler not specified, use rr by default" ipFamily="IPv4"');
    expect(logs).not.toContain('deprecated');
    const r = m.podStarted(
      'a',
      kubeProxyPod('a', { version: 'v1.35.0' }),
      [kubeProxyConfigMap(configText('ipvs'))],
      t0,
    );
    expect(r.logs.find((l) => l.includes('deprecated'))).toMatch(
      /^E1129 14:02:03\.\d{6} {7}1 server_linux\.go:196\] "The ipvs proxier is now deprecated and may be removed in a future release\. Please use 'nftables' instead\."$/,
    );
    expect(r.events).toEqual([
      {
        type: 'Warning',
        reason: 'IPVSDeprecation',
        action: 'StartKubeProxy',
        note: "The ipvs proxier is now deprecated and may be removed in a future release. Please use 'nftables' instead.",
      },
    ]);
  });

  it('IPVS on v1.40 without KubeProxyIPVS=true is refused before any cleanup', () => {
    const m = cluster();
    startAll(m, ['a'], configText('ipvs'));
    const r = m.podStarted(
      'a',
      kubeProxyPod('a', { version: 'v1.40.0' }),
      [kubeProxyConfigMap(configText('ipvs'))],
      t0,
    );
    expect(r.phase).toBe('failed');
    expect(r.logs).toHaveLength(1);
    expect(r.logs[0]).toMatch(
      / run\.go:72\] "command failed" err="failed validate: KubeProxyConfiguration\.mode: Unsupported value: \\"ipvs\\": supported values: \\"iptables\\", \\"nftables\\""$/,
    );
    expect(sh(m, 'a', 'ip link show kube-ipvs0').exitCode).toBe(0);
    const gate = configText('ipvs', 'featureGates:\n  KubeProxyIPVS: true\n');
    expect(
      m.podStarted('a', kubeProxyPod('a', { version: 'v1.40.0' }), [kubeProxyConfigMap(gate)], t0)
        .running,
    ).toBe(true);
    expect(
      m.podStarted('a', kubeProxyPod('a', { version: 'v1.36.1' }), [kubeProxyConfigMap(gate)], t0)
        .message,
    ).toBe('failed complete: unrecognized feature gate: KubeProxyIPVS');
  });

  it('a blank mode means iptables before v1.40 and nftables from v1.40 (KEP-5343)', () => {
    const m = cluster();
    startAll(m, ['old'], configText(''), { version: 'v1.39.2' });
    expect(m.kubeProxy('old')?.config?.mode).toBe('iptables');
    const r = m.podStarted(
      'old',
      kubeProxyPod('old', { version: 'v1.40.0' }),
      [kubeProxyConfigMap(configText(''))],
      t0,
    );
    expect(r.logs[0]).toMatch(/"Using nftables proxy"$/);
    expect(r.message).toBe('kube-proxy in nftables mode requires kernel 5.13 or later');
    startAll(m, ['old'], configText('iptables'), { version: 'v1.40.0' });
    expect(m.kubeProxy('old')?.phase).toBe('running');
  });

  it('--cleanup removes every backend and completes', () => {
    const m = cluster();
    startAll(m, ['a'], configText('ipvs'));
    const r = m.podStarted(
      'a',
      kubeProxyPod('a', { args: ['--cleanup'] }),
      [kubeProxyConfigMap(configText('ipvs'))],
      t0,
    );
    expect(r).toMatchObject({ phase: 'completed', exitCode: 0, reason: 'Completed' });
    expect(m.dataplane('a')).toMatchObject({
      ipvs: undefined,
      ipvsDummy: undefined,
      nft: undefined,
    });
  });

  it('a ConfigMap write makes kube-proxy exit (config file watcher)', () => {
    const m = cluster();
    startAll(m, ['a', 'b'], configText('ipvs'));
    expect(m.configMapChanged(kubeProxyConfigMap(configText('nftables')), t0 + 5000)).toEqual([
      'a',
      'b',
    ]);
    expect(m.kubeProxy('a')?.phase).toBe('failed');
    expect(m.logs('a', 'kube-proxy-a').at(-2)).toContain(
      `"Error running ProxyServer" err="content of the proxy server's configuration file was updated"`,
    );
  });

  it('logs strict decoding errors and keeps going', () => {
    const m = cluster();
    startAll(m, ['a'], configText('nftables', 'nodePortAdresses: ["0.0.0.0/0"]\n'));
    expect(m.logs('a', 'kube-proxy-a')[0]).toMatch(
      /^E.*"Using lenient decoding as strict decoding failed" err="strict decoding error: unknown field \\"nodePortAdresses\\""$/,
    );
    expect(m.kubeProxy('a')?.phase).toBe('running');
  });
});
