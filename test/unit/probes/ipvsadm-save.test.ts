import { describe, expect, it } from 'vitest';
import { probeContext } from '../../../src/probes/context.js';
import { ipvsadmSaveProbe } from '../../../src/probes/ipvsadm-save.js';
import { ipvsSave } from '../../fixtures/node-outputs.js';

describe('ipvsadm-save', () => {
  it('saves the IPVS table numerically', () => {
    expect(ipvsadmSaveProbe.argv(probeContext({}))).toEqual(['ipvsadm', '-Sn']);
    const read = ipvsadmSaveProbe.parse(ipvsSave);
    expect('module' in read && read.virtualServers.map((vs) => vs.address)).toContain('10.96.0.1');
    expect(ipvsadmSaveProbe.parse({ exitCode: 0, stdout: '', stderr: '' })).toEqual({
      virtualServers: [],
      module: true,
    });
  });

  it('reads a host without ip_vs as empty and refuses other text', () => {
    expect(
      ipvsadmSaveProbe.parse({
        exitCode: 2,
        stdout: '',
        stderr: "Can't initialize ipvs: Protocol not available\n",
      }),
    ).toEqual({ module: false, virtualServers: [] });
    expect(
      ipvsadmSaveProbe.parse({ exitCode: 0, stdout: 'TCP  10.96.0.1:443 rr\n', stderr: '' }),
    ).toMatchObject({ code: 'unparsable' });
  });
});
