/**
 * The IPVS table (ipvsadm -Ln). Without the ip_vs module ipvsadm exits 2 ("Can't initialize
 * ipvs"): that is an answer, an empty table with `module: false`, not an unknown.
 */
import { ipvsModuleMissing, parseIpvsadmList, type IpvsTable } from '../core/parse/ipvsadm.js';
import { failed, fromParsed, toolFailure } from './common.js';
import { isProbeError, type Probe } from './types.js';

export type IpvsRead = IpvsTable & { module: boolean };

export const ipvsadmListProbe: Probe<IpvsRead> = {
  id: 'ipvsadm-list',
  describe: 'IPVS virtual servers (ipvsadm -Ln)',
  argv: () => ['ipvsadm', '-Ln'],
  parse(result) {
    const failure = toolFailure(result, 'ipvsadm');
    if (failure !== undefined) return failure;
    if (result.exitCode !== 0)
      return ipvsModuleMissing(result.stderr)
        ? { module: false, virtualServers: [] }
        : failed(result, 'ipvsadm -Ln');
    const table = fromParsed(parseIpvsadmList(result.stdout));
    return isProbeError(table) ? table : { ...table, module: true };
  },
};
