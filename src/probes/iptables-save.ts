/** iptables rules (iptables-save): IPVS mode's KUBE-* chains before a move, leftovers after. */
import { parseIptablesSave, type IptablesSave } from '../core/parse/iptables-save.js';
import { failed, fromParsed, toolFailure } from './common.js';
import type { Probe } from './types.js';

export const iptablesSaveProbe: Probe<IptablesSave> = {
  id: 'iptables-save',
  describe: 'iptables rules (iptables-save)',
  argv: () => ['iptables-save'],
  parse(result) {
    const failure = toolFailure(result, 'iptables-save');
    if (failure !== undefined) return failure;
    if (result.exitCode !== 0) return failed(result, 'iptables-save');
    return fromParsed(parseIptablesSave(result.stdout));
  },
};
