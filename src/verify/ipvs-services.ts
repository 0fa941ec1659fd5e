/**
 * After a rollback IPVS must serve the cluster's Services again: a virtual server for every
 * (ClusterIP, protocol, port). IPVS mode creates one whether or not the Service has endpoints.
 */
import { normalizeIp } from '../core/ip.js';
import { evidence, plural, readable, sample } from './evidence.js';
import { portText } from './expected.js';
import type { CommonVerifyInput, Verification } from './types.js';

type Input = Pick<CommonVerifyInput, 'node' | 'step' | 'now' | 'reads' | 'expected'>;
const ID = 'ipvs-services';

export const ipvsServicesVerification: Verification<Input> = {
  id: ID,
  title: 'IPVS serves every Service again',
  verify(input) {
    const got = readable(input, ID, input.reads['ipvsadm-list'], 'the IPVS table (ipvsadm -Ln)');
    if (!got.ok) return [got.evidence];
    const { read, value } = got;
    const say = (ok: boolean, verdict: string) => [evidence(input, ID, read, ok, verdict)];
    if (!value.module)
      return say(
        false,
        'expected IPVS virtual servers; the ip_vs module is not loaded, so IPVS mode cannot be serving this node',
      );
    const have = new Set(
      value.virtualServers.map(
        (vs) => `${vs.protocol.toLowerCase()} ${normalizeIp(vs.address)} ${vs.port}`,
      ),
    );
    const ports = input.expected.ports;
    const missing = ports.filter((p) => !have.has(`${p.protocol} ${p.ip} ${p.port}`)).map(portText);
    if (missing.length > 0)
      return say(
        false,
        `expected a virtual server for each of ${plural(ports.length, 'Service port')}; ${missing.length} missing: ${sample(missing)}`,
      );
    return say(
      true,
      `IPVS has a virtual server for all ${plural(ports.length, 'Service port')} (${plural(value.virtualServers.length, 'virtual server')} in all)`,
    );
  },
};
