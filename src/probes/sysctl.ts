/**
 * sysctl reads, one probe per key (the same probe parameterised by its key): conntrack headroom
 * (nf_conntrack_count/max) and route_localnet, which iptables mode sets for localhost NodePorts
 * and nftables mode never does (playbook 000, trap 7).
 */
import { parseSysctlNumber } from '../core/parse/sysctl.js';
import { failed, firstLine, toolFailure } from './common.js';
import { probeError, type Probe } from './types.js';

function sysctlProbe(id: string, key: string, describe: string): Probe<number> {
  return {
    id,
    describe,
    argv: () => ['sysctl', '-n', key],
    parse(result) {
      const failure = toolFailure(result, 'sysctl');
      if (failure !== undefined) return failure;
      if (result.exitCode !== 0) return failed(result, `sysctl -n ${key}`);
      return (
        parseSysctlNumber(result.stdout) ??
        probeError(
          'unparsable',
          `sysctl -n ${key} printed "${firstLine(result.stdout)}", not a number`,
        )
      );
    },
  };
}

export const conntrackCountProbe = sysctlProbe(
  'sysctl-conntrack-count',
  'net.netfilter.nf_conntrack_count',
  'conntrack entries in use (sysctl net.netfilter.nf_conntrack_count)',
);

export const conntrackMaxProbe = sysctlProbe(
  'sysctl-conntrack-max',
  'net.netfilter.nf_conntrack_max',
  'the conntrack table size (sysctl net.netfilter.nf_conntrack_max)',
);

export const routeLocalnetProbe = sysctlProbe(
  'sysctl-route-localnet',
  'net.ipv4.conf.all.route_localnet',
  'route_localnet (1 when iptables mode serves NodePorts on 127.0.0.1)',
);
