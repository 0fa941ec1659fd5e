/** Per-CPU conntrack counters (conntrack -S): `invalid=` shows what tcpBeLiberal would spare. */
import { parseConntrackStats, type ConntrackCpuStats } from '../core/parse/conntrack.js';
import { failed, firstLine, toolFailure } from './common.js';
import { probeError, type Probe } from './types.js';

export const conntrackStatsProbe: Probe<ConntrackCpuStats[]> = {
  id: 'conntrack-stats',
  describe: 'per-CPU conntrack counters (conntrack -S)',
  argv: () => ['conntrack', '-S'],
  parse(result) {
    const failure = toolFailure(result, 'conntrack');
    if (failure !== undefined) return failure;
    if (result.exitCode !== 0) return failed(result, 'conntrack -S');
    const stats = parseConntrackStats(result.stdout);
    return stats.length > 0
      ? stats
      : probeError(
          'unparsable',
          `conntrack -S printed no counters ("${firstLine(result.stdout)}")`,
        );
  },
};
