/** The IPVS table in save format (ipvsadm -Sn): the rollback reference `ipvsadm -R` can restore. */
import { ipvsModuleMissing, type IpvsTable } from '../core/parse/ipvsadm.js';
import { parseIpvsadmSave } from '../core/parse/ipvsadm-save.js';
import { failed, fromParsed, toolFailure } from './common.js';
import { isProbeError, type Probe } from './types.js';

export const ipvsadmSaveProbe: Probe<IpvsTable & { module: boolean }> = {
  id: 'ipvsadm-save',
  describe: 'IPVS virtual servers in save format (ipvsadm -Sn)',
  argv: () => ['ipvsadm', '-Sn'],
  parse(result) {
    const failure = toolFailure(result, 'ipvsadm');
    if (failure !== undefined) return failure;
    if (result.exitCode !== 0)
      return ipvsModuleMissing(result.stderr)
        ? { module: false, virtualServers: [] }
        : failed(result, 'ipvsadm -Sn');
    const table = fromParsed(parseIpvsadmSave(result.stdout));
    return isProbeError(table) ? table : { ...table, module: true };
  },
};
