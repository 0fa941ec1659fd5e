import { describe, expect, it } from 'vitest';
import { ipvsServicesVerification } from '../../../src/verify/ipvs-services.js';
import * as out from '../../fixtures/node-outputs.js';
import { ipvsInput, read } from './inputs.js';

function judge(result: out.NodeOutput) {
  const input = ipvsInput();
  input.reads = { ...input.reads, 'ipvsadm-list': read('ipvsadm-list', result) };
  return ipvsServicesVerification.verify(input).map((e) => [e.ok, e.verdict]);
}

describe('ipvs-services', () => {
  it('passes when every Service port has a virtual server', () => {
    expect(judge(out.ipvsList)).toEqual([
      [true, 'IPVS has a virtual server for all 6 Service ports (7 virtual servers in all)'],
    ]);
  });

  it('fails on missing virtual servers and without ip_vs', () => {
    const partial = { ...out.ipvsList, stdout: out.ipvsList.stdout.replace(/^UDP .*$/m, '') };
    expect(judge(partial)).toEqual([
      [
        false,
        'expected a virtual server for each of 6 Service ports; 1 missing: 10.96.0.10 udp 53 (kube-system/kube-dns)',
      ],
    ]);
    expect(
      judge({
        exitCode: 2,
        stdout: '',
        stderr: "Can't initialize ipvs: Protocol not available\n",
      })[0]?.[1],
    ).toContain('the ip_vs module is not loaded');
  });

  it('is unknown, so failed, when ipvsadm could not be read', () => {
    expect(judge({ exitCode: 0, stdout: 'garbage\n', stderr: '' })).toEqual([
      [
        false,
        'could not read the IPVS table (ipvsadm -Ln): ipvsadm -Ln: no "IP Virtual Server version" header',
      ],
    ]);
  });
});
