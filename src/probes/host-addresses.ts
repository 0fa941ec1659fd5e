/**
 * Every address on the host (ip -j addr): which secondary addresses NodePorts must keep answering
 * on (playbook 000 trap 6), and what kube-ipvs0 still holds.
 */
import { parseIpJson, type IpLink } from '../core/parse/ip-json.js';
import { failed, fromParsed, toolFailure } from './common.js';
import type { Probe } from './types.js';

export const hostAddressesProbe: Probe<IpLink[]> = {
  id: 'host-addresses',
  describe: 'the host’s interfaces and addresses (ip -j addr)',
  argv: () => ['ip', '-j', 'addr'],
  parse(result) {
    const failure = toolFailure(result, 'ip');
    if (failure !== undefined) return failure;
    if (result.exitCode !== 0) return failed(result, 'ip -j addr');
    return fromParsed(parseIpJson(result.stdout));
  },
};
