// Table printers for core/v1 and discovery kinds, ported from kubectl's server-side printers
// (k/k pkg/printers/internalversion/printers.go) so `kubectl get` columns match a real cluster.

import { ageSince } from './age.js';
import { formatLabels } from '../apimachinery/label-selector.js';
import type { Column, Printer } from './util.js';
import { ageColumn, int, listWithMore, nameColumn, orNone } from './util.js';
import { podPrinter } from './pod.js';
import type { JsonObject, KubeObject } from '../apimachinery/types.js';
import { asArray, asNumber, asRecord, asString, isJsonObject } from '../apimachinery/types.js';

const s = (name: string, priority = 0): Column => ({ name, type: 'string', priority });
const i = (name: string, priority = 0): Column => ({ name, type: 'integer', priority });

/** findNodeRoles: `node-role.kubernetes.io/<role>` labels plus `kubernetes.io/role`. */
export function nodeRoles(labels: Record<string, string> | undefined): string {
  const roles = new Set<string>();
  for (const [key, value] of Object.entries(labels ?? {})) {
    if (key.startsWith('node-role.kubernetes.io/')) {
      const role = key.slice('node-role.kubernetes.io/'.length);
      if (role !== '') roles.add(role);
    } else if (key === 'kubernetes.io/role' && value !== '') {
      roles.add(value);
    }
  }
  return roles.size === 0 ? '<none>' : [...roles].sort().join(',');
}

export function nodeStatus(node: KubeObject): string {
  const ready = asArray(asRecord(node['status'])['conditions'])
    .map(asRecord)
    .find((c) => c['type'] === 'Ready');
  const parts = [
    ready === undefined ? 'Unknown' : ready['status'] === 'True' ? 'Ready' : 'NotReady',
  ];
  if (asRecord(node['spec'])['unschedulable'] === true) parts.push('SchedulingDisabled');
  return parts.join(',');
}

function nodeAddress(node: KubeObject, type: string): string {
  const found = asArray(asRecord(node['status'])['addresses'])
    .map(asRecord)
    .find((a) => a['type'] === type);
  return found ? asString(found['address'], '<none>') : '<none>';
}

const nodePrinter: Printer = {
  columns: [
    nameColumn,
    s('Status'),
    s('Roles'),
    ageColumn,
    s('Version'),
    s('Internal-IP', 1),
    s('External-IP', 1),
    s('OS-Image', 1),
    s('Kernel-Version', 1),
    s('Container-Runtime', 1),
  ],
  cells(node, now) {
    const info = asRecord(asRecord(node['status'])['nodeInfo']);
    const unknown = (key: string): string => asString(info[key]) || '<unknown>';
    return [
      node.metadata.name ?? '',
      nodeStatus(node),
      nodeRoles(node.metadata.labels),
      ageSince(node.metadata.creationTimestamp, now),
      asString(info['kubeletVersion']),
      nodeAddress(node, 'InternalIP'),
      nodeAddress(node, 'ExternalIP'),
      unknown('osImage'),
      unknown('kernelVersion'),
      unknown('containerRuntimeVersion'),
    ];
  },
};

function servicePorts(spec: JsonObject): string {
  const ports = asArray(spec['ports']).map(asRecord);
  if (ports.length === 0) return '<none>';
  return ports
    .map((p) => {
      const proto = asString(p['protocol'], 'TCP');
      const nodePort = asNumber(p['nodePort']);
      return nodePort !== 0
        ? `${asNumber(p['port'])}:${nodePort}/${proto}`
        : `${asNumber(p['port'])}/${proto}`;
    })
    .join(',');
}

function serviceExternalIp(svc: KubeObject): string {
  const spec = asRecord(svc['spec']);
  const external = asArray(spec['externalIPs']).map((v) => asString(v));
  switch (asString(spec['type'], 'ClusterIP')) {
    case 'ExternalName':
      return asString(spec['externalName']);
    case 'LoadBalancer': {
      const ingress = asArray(asRecord(asRecord(svc['status'])['loadBalancer'])['ingress']).map(
        (e) => asString(asRecord(e)['ip']) || asString(asRecord(e)['hostname']),
      );
      const all = [...ingress, ...external];
      return all.length > 0 ? all.join(',') : '<pending>';
    }
    default:
      return external.length > 0 ? external.join(',') : '<none>';
  }
}

const servicePrinter: Printer = {
  columns: [
    nameColumn,
    s('Type'),
    s('Cluster-IP'),
    s('External-IP'),
    s('Port(s)'),
    ageColumn,
    s('Selector', 1),
  ],
  cells(svc, now) {
    const spec = asRecord(svc['spec']);
    return [
      svc.metadata.name ?? '',
      asString(spec['type'], 'ClusterIP'),
      orNone(asString(spec['clusterIP'])),
      serviceExternalIp(svc),
      servicePorts(spec),
      ageSince(svc.metadata.creationTimestamp, now),
      formatLabels(spec['selector']),
    ];
  },
};

const eventPrinter: Printer = {
  columns: [
    s('Last Seen'),
    s('Type'),
    s('Reason'),
    s('Object'),
    s('Subobject', 1),
    s('Source', 1),
    s('Message'),
    s('First Seen', 1),
    s('Count', 1),
    { ...nameColumn, priority: 1 },
  ],
  cells(ev, now) {
    const involved = asRecord(ev['involvedObject']);
    const source = asRecord(ev['source']);
    const first = asString(ev['firstTimestamp']) || asString(ev['eventTime']);
    const firstSeen = ageSince(first || undefined, now);
    const last = asString(ev['lastTimestamp']);
    const series = asRecord(ev['series']);
    const lastSeen = isJsonObject(ev['series'])
      ? ageSince(series['lastObservedTime'], now)
      : last
        ? ageSince(last, now)
        : firstSeen;
    const count = isJsonObject(ev['series'])
      ? asNumber(series['count'])
      : asNumber(ev['count']) || 1;
    const kind = asString(involved['kind']).toLowerCase();
    const name = asString(involved['name']);
    const sourceText = asString(source['component']) || asString(ev['reportingComponent']);
    const host = asString(source['host']) || asString(ev['reportingInstance']);
    return [
      lastSeen,
      asString(ev['type']),
      asString(ev['reason']),
      name ? `${kind}/${name}` : kind,
      asString(involved['fieldPath']),
      host ? `${sourceText}, ${host}` : sourceText,
      asString(ev['message']).trim(),
      firstSeen,
      count,
      ev.metadata.name ?? '',
    ];
  },
};

const sliceStrings = (slice: KubeObject): { ports: string; endpoints: string } => ({
  ports: listWithMore(
    asArray(slice['ports']).map((p) => {
      const port = asRecord(p)['port'];
      return typeof port === 'number' ? String(port) : asString(asRecord(p)['name']) || '*';
    }),
  ),
  endpoints: listWithMore(
    asArray(slice['endpoints']).flatMap((e) =>
      asArray(asRecord(e)['addresses']).map((a) => asString(a)),
    ),
  ),
});

export const corePrinters: Record<string, Printer> = {
  nodes: nodePrinter,
  pods: podPrinter,
  services: servicePrinter,
  events: eventPrinter,
  namespaces: {
    columns: [nameColumn, s('Status'), ageColumn],
    cells: (ns, now) => [
      ns.metadata.name ?? '',
      asString(asRecord(ns['status'])['phase']),
      ageSince(ns.metadata.creationTimestamp, now),
    ],
  },
  configmaps: {
    columns: [nameColumn, i('Data'), ageColumn],
    cells: (cm, now) => [
      cm.metadata.name ?? '',
      Object.keys(asRecord(cm['data'])).length + Object.keys(asRecord(cm['binaryData'])).length,
      ageSince(cm.metadata.creationTimestamp, now),
    ],
  },
  serviceaccounts: {
    columns: [nameColumn, i('Secrets'), ageColumn],
    cells: (sa, now) => [
      sa.metadata.name ?? '',
      int(asArray(sa['secrets']).length),
      ageSince(sa.metadata.creationTimestamp, now),
    ],
  },
  endpointslices: {
    columns: [nameColumn, s('AddressType'), s('Ports'), s('Endpoints'), ageColumn],
    cells: (slice, now) => {
      const { ports, endpoints } = sliceStrings(slice);
      return [
        slice.metadata.name ?? '',
        asString(slice['addressType']),
        ports,
        endpoints,
        ageSince(slice.metadata.creationTimestamp, now),
      ];
    },
  },
};
