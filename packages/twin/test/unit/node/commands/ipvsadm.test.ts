// ipvsadm's outputs byte for byte, from ipvsadm.c's printf formats.
import { describe, expect, it } from 'vitest';
import { cluster, configText, service, sh, slice, startAll, t0 } from '../fixtures.js';

function withKubernetesService() {
  const m = cluster();
  m.resync(
    [service('kubernetes', '10.96.0.1', 443, { portName: 'https' })],
    [slice('kubernetes', [{ ip: '172.22.132.9', node: 'a' }], { portName: 'https', port: 5443 })],
    t0,
  );
  startAll(m, ['a'], configText('ipvs', 'ipvs:\n  scheduler: rr\n'));
  return m;
}

describe('ipvsadm', () => {
  it('-Ln: the header, one line per virtual server and real server', () => {
    expect(sh(withKubernetesService(), 'a', 'ipvsadm -Ln').stdout).toBe(
      [
        'IP Virtual Server version 1.2.1 (size=4096)',
        'Prot LocalAddress:Port Scheduler Flags',
        '  -> RemoteAddress:Port           Forward Weight ActiveConn InActConn',
        'TCP  10.96.0.1:443 rr',
        '  -> 172.22.132.9:5443            Masq    1      0          0         ',
        '',
      ].join('\n'),
    );
  });

  it('-L without -n names ports from /etc/services but keeps addresses numeric', () => {
    expect(sh(withKubernetesService(), 'a', 'ipvsadm -L').stdout.split('\n')[3]).toBe(
      'TCP  10.96.0.1:https rr',
    );
    expect(sh(withKubernetesService(), 'a', 'ipvsadm -S').stdout).toBe(
      '-A -t 10.96.0.1:https -s rr\n-a -t 10.96.0.1:https -r 172.22.132.9:5443 -m -w 1\n',
    );
  });

  it('-Sn: the save format a rollback restores with ipvsadm -R', () => {
    expect(sh(withKubernetesService(), 'a', 'ipvsadm -Sn').stdout).toBe(
      '-A -t 10.96.0.1:443 -s rr\n-a -t 10.96.0.1:443 -r 172.22.132.9:5443 -m -w 1\n',
    );
    expect(sh(withKubernetesService(), 'a', 'ipvsadm --save -n').stdout).toBe(
      sh(withKubernetesService(), 'a', 'ipvsadm -Sn').stdout,
    );
  });

  it('--stats and --rate: %-33s then %9llu columns, destinations at %-28s', () => {
    const m = withKubernetesService();
    expect(sh(m, 'a', 'ipvsadm -Ln --stats').stdout).toBe(
      [
        'IP Virtual Server version 1.2.1 (size=4096)',
        'Prot LocalAddress:Port               Conns   InPkts  OutPkts  InBytes OutBytes',
        '  -> RemoteAddress:Port',
        'TCP  10.96.0.1:443                       0        0        0        0        0',
        '  -> 172.22.132.9:5443                   0        0        0        0        0',
        '',
      ].join('\n'),
    );
    expect(sh(m, 'a', 'ipvsadm -Ln --rate').stdout).toBe(
      [
        'IP Virtual Server version 1.2.1 (size=4096)',
        'Prot LocalAddress:Port                 CPS    InPPS   OutPPS    InBPS   OutBPS',
        '  -> RemoteAddress:Port',
        'TCP  10.96.0.1:443                       0        0        0        0        0',
        '  -> 172.22.132.9:5443                   0        0        0        0        0',
        '',
      ].join('\n'),
    );
  });

  it('session affinity shows as persistent / -p, and UDP as -u', () => {
    const m = cluster();
    const dns = service('kube-dns', '10.96.0.10', 53, { ns: 'kube-system', protocol: 'UDP' });
    const sticky = service('sticky', '10.96.5.5', 80);
    Object.assign(sticky['spec'] as object, { sessionAffinity: 'ClientIP' });
    m.resync(
      [dns, sticky],
      [
        slice('kube-dns', [{ ip: '10.244.1.2', node: 'a' }], {
          ns: 'kube-system',
          protocol: 'UDP',
          port: 53,
        }),
        slice('sticky', [{ ip: '10.244.1.7', node: 'a' }]),
      ],
      t0,
    );
    startAll(m, ['a'], configText('ipvs'));
    expect(sh(m, 'a', 'ipvsadm -Sn').stdout).toBe(
      [
        '-A -t 10.96.5.5:80 -s rr -p 10800',
        '-a -t 10.96.5.5:80 -r 10.244.1.7:8080 -m -w 1',
        '-A -u 10.96.0.10:53 -s rr',
        '-a -u 10.96.0.10:53 -r 10.244.1.2:53 -m -w 1',
        '',
      ].join('\n'),
    );
    expect(sh(m, 'a', 'ipvsadm -Ln').stdout).toContain('TCP  10.96.5.5:80 rr persistent 10800\n');
  });

  it('lists NodePort virtual servers on every node address in IPVS mode', () => {
    const m = cluster();
    startAll(m, ['b'], configText('ipvs'));
    const out = sh(m, 'b', 'ipvsadm -Ln').stdout;
    expect(out).toContain('TCP  10.0.1.21:31080 rr\n');
    expect(out).toContain('TCP  192.168.50.21:31080 rr\n');
    expect(out).not.toContain('127.0.0.1:31080');
  });

  it('-C clears the virtual servers; an empty table is just the three header lines', () => {
    const m = withKubernetesService();
    expect(sh(m, 'a', 'ipvsadm -C')).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect(sh(m, 'a', 'ipvsadm -Ln').stdout.split('\n')).toHaveLength(4);
    expect(sh(m, 'a', 'ipvsadm -Sn').stdout).toBe('');
  });

  it('fails without the ip_vs module', () => {
    expect(sh(cluster(), 'a', 'ipvsadm -Sn')).toEqual({
      exitCode: 2,
      stdout: '',
      stderr:
        "Can't initialize ipvs: Protocol not available\nAre you sure that IP Virtual Server is built in the kernel or as module?\n",
    });
  });
});
