/**
 * kube-proxy's last successful sync (kubeproxy_sync_proxy_rules_last_timestamp_seconds, per
 * family since v1.33) must be recent: within 2 × syncPeriod of the read, the same window /healthz
 * allows a queued update. Meant right after the new pod starts: newer nftables proxiers no longer
 * resync on a timer (their runner's maxInterval is one hour), so a quiet cluster's timestamp
 * legitimately ages later on.
 */
import { labelText, samplesNamed } from '../core/parse/prometheus.js';
import { valueOf } from '../probes/read.js';
import { evidence, metricSeries, readable, sample } from './evidence.js';
import type { NftablesVerifyInput, Verification } from './types.js';

type Input = Pick<
  NftablesVerifyInput,
  'node' | 'step' | 'now' | 'metrics' | 'syncPeriodSeconds' | 'reads'
>;

/** `/healthz` `currentTime`: RFC 3339 in newer bodies, a Go time string in older ones. */
export function healthzTime(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const go = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)(\.\d+)? ([+-]\d\d)(\d\d)/.exec(text);
  const iso = go === null ? text : `${go[1]}T${go[2]}${(go[3] ?? '').slice(0, 4)}${go[4]}:${go[5]}`;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? undefined : ms;
}

/**
 * How far the node's clock is ahead of the bot's, from the same kube-proxy's /healthz: its
 * `currentTime` against when the bot read it. The metric's timestamp is the node's clock, so
 * judging it against the node's own "now" keeps clock skew out of the verdict.
 */
function nodeClockOffsetMs(input: Input): number | undefined {
  const read = input.reads.healthz;
  const now = healthzTime(valueOf(read)?.currentTime);
  if (read === undefined || now === undefined) return undefined;
  return now - Date.parse(read.at);
}

export const LAST_SYNC = 'kubeproxy_sync_proxy_rules_last_timestamp_seconds';
const ID = 'sync-fresh';

export const syncFreshVerification: Verification<Input> = {
  id: ID,
  title: 'last successful sync is recent',
  verify(input) {
    const got = readable(
      input,
      ID,
      input.metrics.second ?? input.metrics.first,
      'kube-proxy’s /metrics',
    );
    if (!got.ok) return [got.evidence];
    const { read, value } = got;
    const say = (ok: boolean, verdict: string) => [
      evidence(input, ID, read, ok, verdict, metricSeries(LAST_SYNC)),
    ];
    const stamps = samplesNamed(value, LAST_SYNC);
    if (stamps.length === 0) return say(false, `expected ${LAST_SYNC} on /metrics; it is absent`);
    const offset = nodeClockOffsetMs(input);
    const readAt = (Date.parse(read.at) + (offset ?? 0)) / 1000;
    const limit = 2 * input.syncPeriodSeconds;
    const ages = stamps.map((s) => ({
      series: labelText(s.labels) || 'total',
      age: Math.round(readAt - s.value),
    }));
    const stale = ages.filter((a) => a.age > limit);
    const ahead = ages.filter((a) => a.age < -limit);
    const shown = ages.map((a) => `${a.series} ${a.age} s ago`);
    const clock = offset === undefined ? '' : ' (on the node’s clock, from /healthz currentTime)';
    if (ahead.length > 0)
      return say(
        false,
        offset === undefined
          ? `the node's clock is ahead of the bot's by more than ${limit} s (${sample(ahead.map((a) => `${a.series} ${-a.age} s ahead`))}): sync freshness is unknown`
          : `the last sync is stamped more than ${limit} s after the node's own clock (${sample(ahead.map((a) => `${a.series} ${-a.age} s ahead`))}): sync freshness is unknown`,
      );
    if (stale.length > 0)
      return say(
        false,
        `expected a successful sync within 2 × syncPeriod (${limit} s) of the read; ${sample(stale.map((a) => `${a.series} ${a.age} s ago`))}`,
      );
    return say(
      true,
      `last successful sync within ${limit} s of the read${clock} (${shown.join(', ')})`,
    );
  },
};
