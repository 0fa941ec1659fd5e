import { describe, expect, it } from 'vitest';
import { probeContext } from '../../../src/probes/context.js';
import {
  nodeProbes,
  readNodeProbe,
  type NodeProbeId,
  type ProbeReads,
} from '../../../src/probes/index.js';
import { nodeFactsFrom } from '../../../src/probes/node-facts.js';
import { failedRead } from '../../../src/probes/read.js';
import * as out from '../../fixtures/node-outputs.js';

const ctx = probeContext({ nodeIP: '10.0.1.11' });
const at = '2026-12-01T09:00:00.000Z';
const read = <K extends NodeProbeId>(id: K, result: out.NodeOutput) =>
  readNodeProbe(id, nodeProbes[id].argv(ctx), result, at);

describe('nodeFactsFrom', () => {
  it('turns a node’s pre-flight reads into NodeFacts', () => {
    const reads: ProbeReads = {
      'uname-r': read('uname-r', out.unameR),
      'nft-version': read('nft-version', out.nftVersion),
      'conntrack-stats': read('conntrack-stats', out.conntrackS),
      'sysctl-conntrack-count': read('sysctl-conntrack-count', out.conntrackCount),
      'sysctl-conntrack-max': read('sysctl-conntrack-max', out.conntrackMax),
      'host-addresses': read('host-addresses', out.hostAddressesEdge),
      'proxy-mode': read('proxy-mode', out.proxyModeIpvs),
      'proxy-mode-node-ip': read('proxy-mode-node-ip', out.proxyModeNodeIPRefused),
    };
    expect(nodeFactsFrom('blue-1', reads)).toEqual({
      node: 'blue-1',
      kernel: '5.15.0-122-generic',
      nftVersion: '1.0.2',
      conntrack: { invalidPerCpu: [0, 0, 0, 0], count: 1200, max: 262144 },
      // kube-ipvs0's Service IPs, NodeLocal DNSCache, CNI links and link-local are left out.
      addresses: [
        { interface: 'eth0', address: '10.0.4.21', prefixlen: 24 },
        { interface: 'eth0', address: '10.0.100.10', prefixlen: 32 },
        { interface: 'eth1', address: '192.168.50.21', prefixlen: 24 },
      ],
      proxyMode: 'ipvs',
      errors: [],
    });
  });

  it('falls back to the node-IP /proxyMode and records what could not be read', () => {
    const reads: ProbeReads = {
      'uname-r': failedRead(
        nodeProbes['uname-r'],
        ['uname', '-r'],
        'timed-out',
        'exec timed out after 10 s',
        at,
      ),
      'nft-version': read('nft-version', {
        exitCode: 127,
        stdout: '',
        stderr: 'nft: command not found\n',
      }),
      'conntrack-stats': read('conntrack-stats', out.conntrackS),
      'sysctl-conntrack-max': read('sysctl-conntrack-max', {
        exitCode: 255,
        stdout: '',
        stderr:
          'sysctl: cannot stat /proc/sys/net/netfilter/nf_conntrack_max: No such file or directory\n',
      }),
      'proxy-mode': read('proxy-mode', out.proxyModeNodeIPRefused),
      'proxy-mode-node-ip': read('proxy-mode-node-ip', out.proxyModeNft),
    };
    const facts = nodeFactsFrom('green-1', reads);
    expect(facts.kernel).toBeUndefined();
    expect(facts.nftVersion).toBeUndefined();
    expect(facts.conntrack).toEqual({ invalidPerCpu: [0, 0, 0, 0] });
    expect(facts.proxyMode).toBe('nftables');
    expect(facts.errors).toEqual([
      { probe: 'uname-r', code: 'NODE_PROBE_TIMEOUT', message: 'exec timed out after 10 s' },
      {
        probe: 'nft-version',
        code: 'NODE_PROBE_FAILED',
        message: 'nft is not in the probe image (exit 127: nft: command not found)',
      },
      {
        probe: 'sysctl-conntrack-max',
        code: 'NODE_PROBE_FAILED',
        message:
          'sysctl -n net.netfilter.nf_conntrack_max exited 255: sysctl: cannot stat /proc/sys/net/netfilter/nf_conntrack_max: No such file or directory',
      },
    ]);
  });

  it('records both /proxyMode failures when neither answers', () => {
    const facts = nodeFactsFrom('x', {
      'proxy-mode': read('proxy-mode', out.proxyModeNodeIPRefused),
    });
    expect(facts.proxyMode).toBeUndefined();
    expect(facts.errors.map((e) => e.probe)).toEqual(['proxy-mode']);
    expect(facts.conntrack).toBeUndefined();
  });
});
