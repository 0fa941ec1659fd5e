/**
 * After a cutover kube-proxy's table must exist and hold the cluster's Services (facts §5): every
 * ClusterIP in `cluster-ips`, every (ClusterIP, protocol, port) in `service-ips` (or, for a
 * Service without endpoints, in `no-endpoint-services`), dispatched from the `services` chain.
 * One table per family; the ip6 table is judged when there are IPv6 ClusterIPs.
 */
import { normalizeIp, type IpFamily } from '../core/ip.js';
import type { NftTable } from '../core/parse/nft-json.js';
import type { Evidence } from '../core/run-state.js';
import { evidence, plural, readable, sample } from './evidence.js';
import { familiesOf, portText, type ExpectedServices } from './expected.js';
import type { CommonVerifyInput, Verification } from './types.js';

type Input = Pick<CommonVerifyInput, 'node' | 'step' | 'now' | 'reads' | 'expected'>;

const keyOf = (ip: string, protocol: string, port: string | number): string =>
  `${normalizeIp(ip)} ${protocol} ${port}`;

function missingIn(
  table: NftTable,
  expected: ExpectedServices,
  family: IpFamily,
): { ips: string[]; ports: string[] } {
  const ips = new Set((table.sets.get('cluster-ips')?.elements ?? []).map(normalizeIp));
  const programmed = new Set(
    ['service-ips', 'no-endpoint-services'].flatMap((m) =>
      (table.maps.get(m)?.elements ?? []).map((e) =>
        keyOf(e.key[0] ?? '', e.key[1] ?? '', e.key[2] ?? ''),
      ),
    ),
  );
  return {
    ips: expected.clusterIPs
      .filter((c) => c.family === family && !ips.has(c.ip))
      .map((c) => `${c.ip} (${c.service})`),
    ports: expected.ports
      .filter((p) => p.family === family && !programmed.has(keyOf(p.ip, p.protocol, p.port)))
      .map(portText),
  };
}

function judge(input: Input, family: IpFamily): Evidence {
  const id = family === 'IPv4' ? 'nft-table' : 'nft-table-ip6';
  const label = `table ${family === 'IPv4' ? 'ip' : 'ip6'} kube-proxy`;
  const got = readable(input, id, input.reads[id], label);
  if (!got.ok) return got.evidence;
  const { read, value } = got;
  if (!value.present)
    return evidence(
      input,
      id,
      read,
      false,
      `expected ${label}; nft says it does not exist: kube-proxy is not programming nftables here`,
    );
  const { table } = value;
  const absent = [
    table.chains.has('services') ? undefined : 'chain services',
    table.maps.has('service-ips') ? undefined : 'map service-ips',
    table.sets.has('cluster-ips') ? undefined : 'set cluster-ips',
  ].filter((x): x is string => x !== undefined);
  if (absent.length > 0)
    return evidence(
      input,
      id,
      read,
      false,
      `expected ${label} with chain services, map service-ips and set cluster-ips; missing ${absent.join(', ')}`,
    );
  const ips = input.expected.clusterIPs.filter((c) => c.family === family).length;
  const ports = input.expected.ports.filter((p) => p.family === family).length;
  const missing = missingIn(table, input.expected, family);
  if (missing.ips.length === 0 && missing.ports.length === 0)
    return evidence(
      input,
      id,
      read,
      true,
      `${label} holds all ${plural(ips, 'ClusterIP')} (cluster-ips) and all ${plural(ports, 'Service port')} (service-ips, no-endpoint-services)`,
    );
  const parts = [
    missing.ips.length > 0
      ? `${missing.ips.length} of ${ips} ClusterIPs missing from cluster-ips: ${sample(missing.ips)}`
      : '',
    missing.ports.length > 0
      ? `${missing.ports.length} of ${ports} Service ports missing from service-ips: ${sample(missing.ports)}`
      : '',
  ].filter((p) => p !== '');
  return evidence(
    input,
    id,
    read,
    false,
    `expected every Service in ${label}; ${parts.join('; ')}`,
  );
}

export const nftTableVerification: Verification<Input> = {
  id: 'nft-table',
  title: 'kube-proxy’s nftables table holds every Service',
  verify(input) {
    const families: IpFamily[] = familiesOf(input.expected).has('IPv6')
      ? ['IPv4', 'IPv6']
      : ['IPv4'];
    return families.map((family) => judge(input, family));
  },
};
