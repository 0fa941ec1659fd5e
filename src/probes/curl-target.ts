/**
 * Reaching a Service through the node's dataplane with curl (playbook 001: "Curl a ClusterIP and a
 * NodePort from that node … from off-node"). Connect and total timeouts keep a silent drop short;
 * `-o /dev/null -w '%{http_code}'` leaves only the status on stdout. Refused and timed out are
 * answers (the path is broken); only a curl that could not run is unknown.
 */
import { curlOutcome, type CurlOutcome } from '../core/parse/curl.js';
import { toolFailure, url } from './common.js';
import type { ProbeError, ProbeResult, TargetContext } from './types.js';

export const CONNECT_TIMEOUT_SECONDS = 2;
export const MAX_TIME_SECONDS = 5;

export function targetArgv(ctx: TargetContext): string[] {
  return [
    'curl',
    '-sS',
    '-o',
    '/dev/null',
    '--connect-timeout',
    String(CONNECT_TIMEOUT_SECONDS),
    '--max-time',
    String(MAX_TIME_SECONDS),
    '-w',
    '%{http_code}',
    url(ctx.target, '/'),
  ];
}

export function parseTarget(result: ProbeResult): CurlOutcome | ProbeError {
  return toolFailure(result, 'curl') ?? curlOutcome(result.exitCode, result.stdout, result.stderr);
}
