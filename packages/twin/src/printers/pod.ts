// The pod Table printer: printPod's READY, STATUS and RESTARTS logic from kubectl's server-side
// printers, which the product and people read to tell a crash-looping kube-proxy from a healthy one.

import { ageSince } from './age.js';
import type { Column, Printer } from './util.js';
import { ageColumn, nameColumn, orNone } from './util.js';
import type { KubeObject } from '../apimachinery/types.js';
import { asArray, asNumber, asRecord, asString, isJsonObject } from '../apimachinery/types.js';

const s = (name: string, priority = 0): Column => ({ name, type: 'string', priority });

interface PodSummary {
  ready: number;
  reason: string;
  restarts: string;
}

/** printPod's STATUS/READY/RESTARTS logic, without sidecar (restartable init) containers. */
export function podSummary(pod: KubeObject, now: number): PodSummary {
  const spec = asRecord(pod['spec']);
  const status = asRecord(pod['status']);
  let reason = asString(status['reason']) || asString(status['phase']);
  let restarts = 0;
  let lastRestart = 0;
  let ready = 0;
  const initStatuses = asArray(status['initContainerStatuses']).map(asRecord);
  const initTotal = asArray(spec['initContainers']).length;
  let initializing = false;
  for (const [index, c] of initStatuses.entries()) {
    restarts += asNumber(c['restartCount']);
    const state = asRecord(c['state']);
    const terminated = isJsonObject(state['terminated']) ? state['terminated'] : undefined;
    const waiting = isJsonObject(state['waiting']) ? state['waiting'] : undefined;
    if (terminated && asNumber(terminated['exitCode']) === 0) continue;
    initializing = true;
    if (terminated) {
      reason = `Init:${asString(terminated['reason']) || `ExitCode:${asNumber(terminated['exitCode'])}`}`;
    } else if (waiting && asString(waiting['reason']) && waiting['reason'] !== 'PodInitializing') {
      reason = `Init:${asString(waiting['reason'])}`;
    } else {
      reason = `Init:${index}/${initTotal}`;
    }
    break;
  }
  if (!initializing) {
    let hasRunning = false;
    const statuses = asArray(status['containerStatuses']).map(asRecord);
    for (const c of [...statuses].reverse()) {
      restarts += asNumber(c['restartCount']);
      const finished = Date.parse(
        asString(asRecord(asRecord(c['lastState'])['terminated'])['finishedAt']),
      );
      if (!Number.isNaN(finished)) lastRestart = Math.max(lastRestart, finished);
      const state = asRecord(c['state']);
      const waiting = asRecord(state['waiting']);
      const terminated = isJsonObject(state['terminated']) ? state['terminated'] : undefined;
      if (asString(waiting['reason'])) reason = asString(waiting['reason']);
      else if (terminated && asString(terminated['reason']))
        reason = asString(terminated['reason']);
      else if (terminated) {
        const signal = asNumber(terminated['signal']);
        reason = signal !== 0 ? `Signal:${signal}` : `ExitCode:${asNumber(terminated['exitCode'])}`;
      } else if (c['ready'] === true && isJsonObject(state['running'])) {
        hasRunning = true;
        ready += 1;
      }
    }
    if (reason === 'Completed' && hasRunning) {
      const podReady = asArray(status['conditions'])
        .map(asRecord)
        .some((c) => c['type'] === 'Ready' && c['status'] === 'True');
      reason = podReady ? 'Running' : 'NotReady';
    }
  }
  if (pod.metadata.deletionTimestamp !== undefined) {
    if (asString(status['reason']) === 'NodeLost') reason = 'Unknown';
    else if (!['Succeeded', 'Failed'].includes(asString(status['phase']))) reason = 'Terminating';
  }
  const restartText =
    restarts !== 0 && lastRestart > 0
      ? `${restarts} (${ageSince(new Date(lastRestart).toISOString(), now)} ago)`
      : String(restarts);
  return { ready, reason, restarts: restartText };
}

export const podPrinter: Printer = {
  columns: [
    nameColumn,
    s('Ready'),
    s('Status'),
    s('Restarts'),
    ageColumn,
    s('IP', 1),
    s('Node', 1),
    s('Nominated Node', 1),
    s('Readiness Gates', 1),
  ],
  cells(pod, now) {
    const spec = asRecord(pod['spec']);
    const status = asRecord(pod['status']);
    const summary = podSummary(pod, now);
    const gates = asArray(spec['readinessGates']).map(asRecord);
    const conditions = asArray(status['conditions']).map(asRecord);
    const trueGates = gates.filter((g) =>
      conditions.some((c) => c['type'] === g['conditionType'] && c['status'] === 'True'),
    ).length;
    const podIp =
      asString(asRecord(asArray(status['podIPs'])[0])['ip']) || asString(status['podIP']);
    return [
      pod.metadata.name ?? '',
      `${summary.ready}/${asArray(spec['containers']).length}`,
      summary.reason,
      summary.restarts,
      ageSince(pod.metadata.creationTimestamp, now),
      orNone(podIp),
      orNone(asString(spec['nodeName'])),
      orNone(asString(status['nominatedNodeName'])),
      gates.length === 0 ? '<none>' : `${trueGates}/${gates.length}`,
    ];
  },
};
