import { describe, expect, it } from 'vitest';
import { ipvsEmptyVerification } from '../../../src/verify/ipvs-empty.js';
import * as out from '../../fixtures/node-outputs.js';
import { nftablesInput, read } from './inputs.js';

function judge(result: out.NodeOutput | undefined) {
  const input = nftablesInput();
  const { 'ipvsadm-list': _, ...reads } = input.reads;
  const withRead =
    result === undefined ? reads : { ...reads, 'ipvsadm-list': read('ipvsadm-list', result) };
  return ipvsEmptyVerification.verify({ ...input, reads: withRead });
}

describe('ipvs-empty', () => {
  it('passes on an empty table and on a host without ip_vs', () => {
    expect(judge(out.ipvsEmpty)[0]?.ok).toBe(true);
    const noModule = judge({
      exitCode: 2,
      stdout: '',
      stderr: "Can't initialize ipvs: Protocol not available\n",
    });
    expect(noModule.map((e) => [e.ok, e.verdict])).toEqual([
      [true, 'no ip_vs module loaded: no IPVS virtual servers'],
    ]);
  });

  it('fails on leftover virtual servers, with the remedy and its blast radius', () => {
    const [e] = judge(out.ipvsList);
    expect(e?.ok).toBe(false);
    expect(e?.verdict).toContain('7 remain (4 on Service IPs)');
    expect(e?.verdict).toContain('`ipvsadm -C` (it removes every virtual server on the host');
    expect(e?.argv).toEqual(['ipvsadm', '-Ln']);
    expect(e?.output).toContain('TCP  10.96.0.1:443 rr');
  });

  it('is unknown, so failed, when ipvsadm could not run', () => {
    expect(
      judge({ exitCode: 127, stdout: '', stderr: 'ipvsadm: command not found\n' })[0]?.verdict,
    ).toBe(
      'could not read the IPVS table (ipvsadm -Ln): ipvsadm is not in the probe image (exit 127: ipvsadm: command not found)',
    );
    expect(judge(undefined)[0]?.ok).toBe(false);
  });
});
