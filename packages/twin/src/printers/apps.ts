// Table printers for apps/v1 and coordination kinds (DaemonSet, Deployment, ControllerRevision,
// Lease), with the real column sets from kubectl's server-side printers.

import { ageSince } from './age.js';
import {
  formatLabelSelector,
  formatLabels,
  fromLabelSelectorObject,
} from '../apimachinery/label-selector.js';
import type { Column, Printer } from './util.js';
import { ageColumn, containerCells, int, nameColumn } from './util.js';
import { asArray, asNumber, asRecord, asString } from '../apimachinery/types.js';

const s = (name: string, priority = 0): Column => ({ name, type: 'string', priority });
const i = (name: string, priority = 0): Column => ({ name, type: 'integer', priority });

function selectorText(spec: unknown): string {
  const selector = asRecord(spec)['selector'];
  return selector === undefined ? '<none>' : formatLabelSelector(fromLabelSelectorObject(selector));
}

const daemonSetPrinter: Printer = {
  columns: [
    nameColumn,
    i('Desired'),
    i('Current'),
    i('Ready'),
    i('Up-to-date'),
    i('Available'),
    s('Node Selector'),
    ageColumn,
    s('Containers', 1),
    s('Images', 1),
    s('Selector', 1),
  ],
  cells(ds, now) {
    const spec = asRecord(ds['spec']);
    const status = asRecord(ds['status']);
    const podSpec = asRecord(asRecord(spec['template'])['spec']);
    const [containers, images] = containerCells(podSpec);
    return [
      ds.metadata.name ?? '',
      int(status['desiredNumberScheduled']),
      int(status['currentNumberScheduled']),
      int(status['numberReady']),
      int(status['updatedNumberScheduled']),
      int(status['numberAvailable']),
      formatLabels(podSpec['nodeSelector']),
      ageSince(ds.metadata.creationTimestamp, now),
      containers,
      images,
      selectorText(spec),
    ];
  },
};

const deploymentPrinter: Printer = {
  columns: [
    nameColumn,
    s('Ready'),
    i('Up-to-date'),
    i('Available'),
    ageColumn,
    s('Containers', 1),
    s('Images', 1),
    s('Selector', 1),
  ],
  cells(deploy, now) {
    const spec = asRecord(deploy['spec']);
    const status = asRecord(deploy['status']);
    const [containers, images] = containerCells(asRecord(spec['template'])['spec']);
    const desired = typeof spec['replicas'] === 'number' ? spec['replicas'] : 1;
    return [
      deploy.metadata.name ?? '',
      `${asNumber(status['readyReplicas'])}/${desired}`,
      int(status['updatedReplicas']),
      int(status['availableReplicas']),
      ageSince(deploy.metadata.creationTimestamp, now),
      containers,
      images,
      selectorText(spec),
    ];
  },
};

const controllerRevisionPrinter: Printer = {
  columns: [nameColumn, s('Controller'), i('Revision'), ageColumn],
  cells(rev, now) {
    const owner = asArray(rev.metadata.ownerReferences)
      .map(asRecord)
      .find((o) => o['controller'] === true);
    let controller = '<none>';
    if (owner) {
      const apiVersion = asString(owner['apiVersion']);
      const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
      const kind = asString(owner['kind']).toLowerCase();
      controller = `${group ? `${kind}.${group}` : kind}/${asString(owner['name'])}`;
    }
    return [
      rev.metadata.name ?? '',
      controller,
      int(rev['revision']),
      ageSince(rev.metadata.creationTimestamp, now),
    ];
  },
};

const leasePrinter: Printer = {
  columns: [nameColumn, s('Holder'), ageColumn],
  cells: (lease, now) => [
    lease.metadata.name ?? '',
    asString(asRecord(lease['spec'])['holderIdentity']),
    ageSince(lease.metadata.creationTimestamp, now),
  ],
};

export const appsPrinters: Record<string, Printer> = {
  daemonsets: daemonSetPrinter,
  deployments: deploymentPrinter,
  controllerrevisions: controllerRevisionPrinter,
  leases: leasePrinter,
};
