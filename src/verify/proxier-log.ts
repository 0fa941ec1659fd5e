/**
 * kube-proxy's log must name the proxier the node should run and show no sync or start errors
 * since (playbook 000 trap 4: "confirm the mode actually changed from the logs rather than
 * trusting the rollout"). Strings: core/parse/kube-proxy-log.ts.
 */
import {
  readKubeProxyLog,
  type LogProblem,
  type LoggedMode,
} from '../core/parse/kube-proxy-log.js';
import { evidence, plural, readable } from './evidence.js';
import type { CommonVerifyInput, Verification } from './types.js';

type Input = Pick<CommonVerifyInput, 'node' | 'step' | 'now' | 'log'>;

const shown = (p: LogProblem): string =>
  `"${p.message}"${p.err === undefined ? '' : ` err="${p.err}"`}`;

function proxierLog(mode: Extract<LoggedMode, 'nftables' | 'ipvs'>): Verification<Input> {
  const id = `${mode}-log`;
  const expected = `"Using ${mode} Proxier"`;
  return {
    id,
    title: `kube-proxy’s log says ${expected}, no sync errors`,
    verify(input) {
      const got = readable(input, id, input.log, 'kube-proxy’s log');
      if (!got.ok) return [got.evidence];
      const { read, value: lines } = got;
      const log = readKubeProxyLog(lines);
      const say = (ok: boolean, verdict: string) => [evidence(input, id, read, ok, verdict)];
      const start = log.startErrors[0];
      if (start !== undefined)
        return say(false, `expected ${expected}; kube-proxy failed to start: ${shown(start)}`);
      if (log.proxier === undefined)
        return say(
          false,
          `expected ${expected}; no "Using … Proxier" line in ${plural(log.lines, 'line')} (read the whole log of the current container, not a --tail)`,
        );
      if (log.proxier.mode !== mode)
        return say(false, `expected ${expected}; the log says "Using ${log.proxier.mode} Proxier"`);
      const first = log.syncErrors[0];
      if (first !== undefined)
        return say(
          false,
          `log says ${expected}, then ${plural(log.syncErrors.length, 'sync error')}, the first: ${shown(first)}`,
        );
      return say(
        true,
        `log says ${expected} and shows no sync errors in the ${plural(log.lines - log.proxier.index - 1, 'line')} after it`,
      );
    },
  };
}

export const nftablesLogVerification = proxierLog('nftables');
export const ipvsLogVerification = proxierLog('ipvs');
