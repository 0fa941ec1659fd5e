import { describe, expect, it } from 'vitest';
import { probeContext } from '../../../src/probes/context.js';
import {
  ipvsProbes,
  nftablesProbes,
  nodeProbes,
  preflightProbes,
  probePlan,
  referenceProbes,
  readNodeProbe,
  targetProbes,
  withRead,
} from '../../../src/probes/index.js';

const ctx = { ...probeContext({ nodeIP: '10.0.1.11' }), target: { host: '10.96.0.1', port: 443 } };
const all = [...Object.entries(nodeProbes), ...Object.entries(targetProbes)];

describe('probe registry', () => {
  it('keys every probe by its own id', () => {
    for (const [key, probe] of all) expect(probe.id).toBe(key);
  });

  it('builds argv arrays, never shell strings, and bounds every curl', () => {
    for (const [, probe] of all) {
      const argv = probe.argv(ctx);
      expect(argv.length).toBeGreaterThan(0);
      expect(['sh', 'bash', '-c']).not.toContain(argv[0]);
      expect(argv[0]).not.toMatch(/\s/);
      if (argv[0] === 'curl') expect(argv).toContain('--max-time');
    }
  });

  it('pre-flight reads what probe-nodes.ts reads today: kernel, nft, conntrack, addresses, proxy mode', () => {
    const argvs = preflightProbes.map((id) => nodeProbes[id].argv(ctx).join(' '));
    expect(argvs).toEqual([
      'uname -r',
      'nft --version',
      'conntrack -S',
      'sysctl -n net.netfilter.nf_conntrack_count',
      'sysctl -n net.netfilter.nf_conntrack_max',
      'ip -j addr',
      'curl -sS --max-time 3 http://127.0.0.1:10249/proxyMode',
      'curl -sS --max-time 3 http://10.0.1.11:10249/proxyMode',
    ]);
  });

  it('lists the probes each phase runs, skipping those that do not apply', () => {
    expect(referenceProbes).toContain('ipvsadm-save');
    expect(nftablesProbes).toEqual(
      expect.arrayContaining(['nft-table', 'ipvsadm-list', 'kube-ipvs0', 'healthz', 'metrics']),
    );
    expect(ipvsProbes).toEqual(
      expect.arrayContaining(['ipvsadm-list', 'kube-ipvs0', 'nft-table', 'healthz']),
    );
    expect(probePlan(preflightProbes, probeContext({})).map((p) => p.id)).not.toContain(
      'proxy-mode-node-ip',
    );
    expect(probePlan(['uname-r', 'proxy-mode-node-ip'], ctx)).toEqual([
      { id: 'uname-r', argv: ['uname', '-r'] },
      {
        id: 'proxy-mode-node-ip',
        argv: ['curl', '-sS', '--max-time', '3', 'http://10.0.1.11:10249/proxyMode'],
      },
    ]);
  });
});

describe('readNodeProbe', () => {
  it('parses with the probe the id names and files the read under it', () => {
    const read = readNodeProbe(
      'nft-version',
      ['nft', '--version'],
      { exitCode: 0, stdout: 'nftables v1.0.9 (Old Doc Yak #3)\n', stderr: '' },
      'T',
    );
    expect(read.value).toBe('1.0.9');
    expect(withRead({}, 'nft-version', read)['nft-version']).toBe(read);
  });
});
