/**
 * IPVS mode's dummy interface (facts §6): it holds every Service IP as a local address. After a
 * cutover it must be gone (kube-proxy skips its IPVS cleanup silently when modprobe fails in its
 * container, PR #131243); after a rollback it must be back.
 */
import { ipDeviceMissing, parseIpJson, type IpLink } from '../core/parse/ip-json.js';
import { failed, fromParsed, toolFailure } from './common.js';
import { isProbeError, probeError, type Probe } from './types.js';

export type LinkRead = { present: false } | { present: true; link: IpLink };

export const kubeIpvs0Probe: Probe<LinkRead> = {
  id: 'kube-ipvs0',
  describe: 'IPVS mode’s dummy interface (ip -j link show kube-ipvs0)',
  argv: () => ['ip', '-j', 'link', 'show', 'kube-ipvs0'],
  parse(result) {
    const failure = toolFailure(result, 'ip');
    if (failure !== undefined) return failure;
    if (result.exitCode !== 0)
      return ipDeviceMissing(result.stderr) ? { present: false } : failed(result, 'ip link show');
    const links = fromParsed(parseIpJson(result.stdout));
    if (isProbeError(links)) return links;
    const link = links.find((l) => l.name === 'kube-ipvs0');
    return link === undefined
      ? probeError('unparsable', 'ip link show kube-ipvs0 exited 0 but listed no kube-ipvs0')
      : { present: true, link };
  },
};
