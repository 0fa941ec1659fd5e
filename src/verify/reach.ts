/** Judging one curl read against a target: shared by the ClusterIP and NodePort verifications. */
import { hostPort } from '../core/ip.js';
import { answered, type CurlOutcome } from '../core/parse/curl.js';
import type { Evidence } from '../core/run-state.js';
import { evidence, readable } from './evidence.js';
import type { ReachabilityRead, ReachabilityTarget, VerifyScope } from './types.js';

export const targetText = (t: ReachabilityTarget): string =>
  `${hostPort(t.host, t.port)} (${t.service}${t.address === 'secondary' ? ', secondary address' : ''})`;

function outcomeText(o: CurlOutcome): string {
  switch (o.kind) {
    case 'http':
      return `HTTP ${o.status}`;
    case 'connected':
      return `connected, no HTTP answer (${o.message})`;
    case 'refused':
      return `refused (${o.message})`;
    case 'timed-out':
      return `timed out (${o.message})`;
    case 'failed':
      return `curl exit ${o.exitCode} (${o.message})`;
  }
}

export function findRead(
  reads: readonly ReachabilityRead[],
  target: ReachabilityTarget,
  from: string,
): ReachabilityRead | undefined {
  return reads.find(
    (r) =>
      r.from === from &&
      r.target.kind === target.kind &&
      r.target.host === target.host &&
      r.target.port === target.port,
  );
}

export function judgeReach(
  scope: VerifyScope,
  id: string,
  target: ReachabilityTarget,
  from: string,
  found: ReachabilityRead | undefined,
  note = '',
): Evidence {
  const where = `${targetText(target)} from ${from}${note}`;
  const got = readable(scope, id, found?.read, where);
  if (!got.ok) return got.evidence;
  const ok = answered(got.value);
  const verdict = ok
    ? `${where} answered: ${outcomeText(got.value)}`
    : `expected ${where} to answer; ${outcomeText(got.value)}`;
  return evidence(scope, id, got.read, ok, verdict);
}
