import { describe, expect, it } from 'vitest';
import { probeContext } from '../../../src/probes/context.js';
import { ipvsadmListProbe } from '../../../src/probes/ipvsadm-list.js';
import { ipvsEmpty, ipvsList } from '../../fixtures/node-outputs.js';

const noModule = {
  exitCode: 2,
  stdout: '',
  stderr:
    "Can't initialize ipvs: Protocol not available\nAre you sure that IP Virtual Server is built in the kernel or as module?\n",
};

describe('ipvsadm-list', () => {
  it('lists the IPVS table numerically', () => {
    expect(ipvsadmListProbe.argv(probeContext({}))).toEqual(['ipvsadm', '-Ln']);
    const read = ipvsadmListProbe.parse(ipvsList);
    expect('module' in read && read.module && read.virtualServers.length).toBe(7);
    expect(ipvsadmListProbe.parse(ipvsEmpty)).toEqual({
      version: '1.2.1',
      virtualServers: [],
      module: true,
    });
  });

  it('reads a host without ip_vs as an empty table, not an error', () => {
    expect(ipvsadmListProbe.parse(noModule)).toEqual({ module: false, virtualServers: [] });
  });

  it('is an error without ipvsadm or with foreign output', () => {
    expect(
      ipvsadmListProbe.parse({ exitCode: 127, stdout: '', stderr: 'ipvsadm: command not found\n' }),
    ).toMatchObject({ code: 'not-installed' });
    expect(ipvsadmListProbe.parse({ exitCode: 0, stdout: 'hello\n', stderr: '' })).toMatchObject({
      code: 'unparsable',
    });
  });
});
