import { describe, expect, it } from 'vitest';
import { localhostNodeport, loopbackEndpoints } from '../../../src/checks/localhost-nodeport.js';
import type { KubePod } from '../../../src/core/kube.js';
import {
  configWith,
  ctxOf,
  ctxWithConfig,
  facts,
  hostNetworkPod,
  poolNodes,
  prometheusRule,
  service,
} from '../../fixtures/checks-b.js';

const services = [service('monitoring', 'prometheus', 'NodePort', 30090)];

describe('localhost-nodeport', () => {
  it('finds hostNetwork pods, ConfigMaps and PrometheusRules calling loopback NodePorts; info in IPVS, where they already fail', () => {
    const ctx = ctxOf({
      services,
      hostNetworkPods: [
        hostNetworkPod('monitoring', 'node-agent', {
          args: ['--remote-write=http://127.0.0.1:30090/api/v1/write'],
        }),
        hostNetworkPod('logging', 'shipper', { env: { SINK: 'localhost:31514' } }),
      ],
      configMaps: [
        {
          metadata: { name: 'scrape', namespace: 'monitoring' },
          data: { 'prometheus.yml': "targets: ['127.0.0.1:30090', '127.0.0.1:9100']" },
        },
      ],
      prometheusRules: [
        prometheusRule('monitoring', 'nodeports', [
          { alert: 'PromDown', expr: 'up{instance="127.0.0.1:30090"} == 0' },
        ]),
      ],
    });
    const findings = localhostNodeport.run(ctx);
    expect(findings).toHaveLength(1);
    const [f] = findings;
    expect(f).toMatchObject({
      check: 'localhost-nodeport',
      severity: 'info',
      scope: { kind: 'cluster', name: 'cluster-a' },
      subjects: [
        'logging/shipper',
        'monitoring/node-agent',
        'monitoring/nodeports',
        'monitoring/scrape',
      ],
    });
    expect(f?.title).toBe(
      '4 objects call a NodePort on loopback (127.0.0.1:30090, localhost:31514), which already fails in ipvs mode',
    );
    expect(f?.detail).toContain(
      'DaemonSet monitoring/node-agent (container agent args): 127.0.0.1:30090, NodePort of Service monitoring/prometheus',
    );
    expect(f?.detail).toContain(
      'DaemonSet logging/shipper (container agent env SINK): localhost:31514, no Service has this NodePort today',
    );
    expect(f?.detail).toContain('ConfigMap monitoring/scrape');
    expect(f?.detail).toContain(
      'PrometheusRule monitoring/nodeports (group kube-proxy PromDown expr)',
    );
    expect(f?.detail).toContain('never answered in IPVS mode');
    expect(f?.detail).toContain('connections hung instead of being refused');
    expect(f?.detail).toContain('until PR #101023 in 2021');
    expect(f?.detail).toContain('to avoid route_localnet, the CVE-2020-8558 surface');
    expect(f?.detail).toContain('nftables keeps them failing');
    expect(f?.detail).toContain('KEP-6032');
    expect(f?.remedy).toContain('node IP');
    expect(f?.commands[0]).toContain('127.0.0.1:3[0-2][0-9][0-9][0-9]');
  });

  it('warns when kube-proxy runs iptables, where loopback NodePorts answer today', () => {
    const pod = hostNetworkPod('monitoring', 'node-agent', { args: ['--to=127.0.0.1:30090'] });
    const config = configWith({ 'mode: ipvs': 'mode: ""' });
    const [f] = localhostNodeport.run(ctxWithConfig(config, { services, hostNetworkPods: [pod] }));
    expect(f).toMatchObject({ severity: 'warn', subjects: ['monitoring/node-agent'] });
    expect(f?.title).toBe('1 object calls a NodePort on loopback (127.0.0.1:30090)');
    expect(f?.detail).toContain('kube-proxy runs in iptables mode');
    expect(f?.detail).toContain('fail after the move');
    // Fact-check #2: route_localnet only while nodePortAddresses covers IPv4 loopback.
    expect(f?.detail).toContain(
      'sets route_localnet=1; not when nodePortAddresses is set and leaves out 127.0.0.0/8',
    );
    expect(f?.remedy).toContain('node IP');
  });

  it('[::1] callers already fail in iptables mode (IPv4 only): info, not "works today"', () => {
    const pod = hostNetworkPod('monitoring', 'node-agent', { args: ['--to=[::1]:30090'] });
    const config = configWith({ 'mode: ipvs': 'mode: ""' });
    const [f] = localhostNodeport.run(ctxWithConfig(config, { services, hostNetworkPods: [pod] }));
    expect(f).toMatchObject({ severity: 'info', subjects: ['monitoring/node-agent'] });
    expect(f?.title).toBe(
      '1 object calls a NodePort on loopback ([::1]:30090), which already fails: no mode answers [::1]',
    );
    expect(f?.detail).toContain('on IPv4 only');
    expect(f?.detail).toContain('they fail today and keep failing after the move');
    expect(f?.detail).not.toContain('can work today');
  });

  it('mixed 127.0.0.1 and [::1] callers in iptables mode: warns, naming the [::1] ones as already failing', () => {
    const v4 = hostNetworkPod('monitoring', 'node-agent', { args: ['--to=127.0.0.1:30090'] });
    const v6 = hostNetworkPod('monitoring', 'v6-agent', { args: ['--to=[::1]:30090'] });
    const config = configWith({ 'mode: ipvs': 'mode: ""' });
    const [f] = localhostNodeport.run(
      ctxWithConfig(config, { services, hostNetworkPods: [v4, v6] }),
    );
    expect(f?.severity).toBe('warn');
    expect(f?.detail).toContain('the 127.0.0.1 and localhost callers can work today');
    expect(f?.detail).toContain('the [::1] callers ([::1]:30090) already fail today');
    expect(f?.detail).toContain('alpha in 1.37 and off by default');
  });

  it('warns when a probed node reports iptables, even if the configured mode is IPVS', () => {
    const pod = hostNetworkPod('storage', 's3-gateway', { args: ['--to=127.0.0.1:30090'] });
    const nodes = [...poolNodes('blue', 1), ...poolNodes('storage', 1)];
    const nodeFacts = [facts('blue-1'), facts('storage-1', { proxyMode: 'iptables' })];
    const [f] = localhostNodeport.run(
      ctxOf({ services, hostNetworkPods: [pod], nodes, nodeFacts }),
    );
    expect(f?.severity).toBe('warn');
    expect(f?.detail).toContain('1 node reports iptables on /proxyMode (storage-1)');
  });

  it('warns when kube-proxy’s mode cannot be read', () => {
    const pod = hostNetworkPod('monitoring', 'node-agent', { args: ['--to=127.0.0.1:30090'] });
    const [f] = localhostNodeport.run(
      ctxOf({ services, hostNetworkPods: [pod], kubeSystemConfigMaps: [] }),
    );
    expect(f?.severity).toBe('warn');
    expect(f?.detail).toContain('mode could not be read');
  });

  it('reads probe host/port pairs that the shared type does not declare', () => {
    const pod = hostNetworkPod('edge', 'gateway', {
      extra: { livenessProbe: { httpGet: { host: '127.0.0.1', port: 30443, path: '/healthz' } } },
    });
    const [f] = localhostNodeport.run(ctxOf({ hostNetworkPods: [pod] }));
    expect(f?.subjects).toEqual(['edge/gateway']);
    expect(f?.detail).toContain('container agent probe');
  });

  it('follows a custom --service-node-port-range and Services outside the default range', () => {
    const apiserver: KubePod = {
      metadata: { name: 'kube-apiserver-cp-1', namespace: 'kube-system' },
      spec: {
        hostNetwork: true,
        containers: [
          {
            name: 'kube-apiserver',
            command: ['kube-apiserver', '--service-node-port-range=20000-22767'],
          },
        ],
      },
    };
    const pod = hostNetworkPod('apps', 'agent', { args: ['--target=127.0.0.1:20001'] });
    const [f] = localhostNodeport.run(ctxOf({ hostNetworkPods: [apiserver, pod] }));
    expect(f?.subjects).toEqual(['apps/agent']);
  });

  it('does not fire on loopback ports outside the NodePort range', () => {
    const pod = hostNetworkPod('monitoring', 'exporter', {
      args: ['--web.listen-address=127.0.0.1:9100', '--etcd=https://127.0.0.1:2379'],
    });
    expect(localhostNodeport.run(ctxOf({ hostNetworkPods: [pod] }))).toEqual([]);
  });

  it('only notes the host files it cannot see when NodePorts exist and nothing calls them', () => {
    const [f] = localhostNodeport.run(ctxOf({ services }));
    expect(f).toMatchObject({ severity: 'info', scope: { kind: 'cluster' } });
    expect(f?.detail).toContain('systemd units');
  });

  it('matches loopback endpoints as whole tokens only', () => {
    expect(loopbackEndpoints('http://127.0.0.1:30090/x and [::1]:31000')).toEqual([
      { endpoint: '127.0.0.1:30090', port: 30090 },
      { endpoint: '[::1]:31000', port: 31000 },
    ]);
    expect(loopbackEndpoints('notlocalhost:30090 10.127.0.0.1:30090 127.0.0.1:300901')).toEqual([]);
  });
});
