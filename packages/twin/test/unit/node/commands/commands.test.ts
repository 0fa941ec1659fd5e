import { describe, expect, it } from 'vitest';
import { cluster, configText, sh, startAll, t0 } from '../fixtures.js';

describe('conntrack, sysctl, cat, uname', () => {
  it('conntrack -S prints cpu=%-4u\\t then key=value pairs with a trailing space', () => {
    const m = cluster([{ match: 'a', conntrack: { count: 1200, invalidPerCpu: [0, 3] } }]);
    expect(sh(m, 'a', 'conntrack -S').stdout).toBe(
      'cpu=0   \tfound=0 invalid=0 insert=0 insert_failed=0 drop=0 early_drop=0 error=0 search_restart=0 clash_resolve=0 chaintoolong=0 \n' +
        'cpu=1   \tfound=0 invalid=3 insert=0 insert_failed=0 drop=0 early_drop=0 error=0 search_restart=0 clash_resolve=0 chaintoolong=0 \n',
    );
    expect(sh(m, 'old', 'conntrack -S').stdout.split('\n')[0]).toBe(
      'cpu=0   \tfound=0 invalid=0 ignore=0 insert=0 insert_failed=0 drop=0 early_drop=0 error=0 search_restart=0 ',
    );
    expect(sh(m, 'a', 'conntrack -C').stdout).toBe('1200\n');
    expect(sh(m, 'a', "conntrack -S | tr ' ' '\\n' | grep invalid").stdout).toBe(
      'invalid=0\ninvalid=3\n',
    );
  });

  it('sysctl and /proc/sys answer the conntrack and route_localnet keys', () => {
    const m = cluster([{ match: 'a', conntrack: { count: 1200, max: 131072 } }]);
    expect(
      sh(m, 'a', 'sysctl net.netfilter.nf_conntrack_count net.netfilter.nf_conntrack_max').stdout,
    ).toBe('net.netfilter.nf_conntrack_count = 1200\nnet.netfilter.nf_conntrack_max = 131072\n');
    expect(sh(m, 'a', 'sysctl -n net.ipv4.conf.all.route_localnet').stdout).toBe('0\n');
    expect(sh(m, 'a', 'sysctl -n net/netfilter/nf_conntrack_tcp_be_liberal').stdout).toBe('0\n');
    expect(sh(m, 'a', 'cat /proc/sys/net/netfilter/nf_conntrack_max').stdout).toBe('131072\n');
    expect(sh(m, 'a', 'sysctl net.foo.bar')).toEqual({
      exitCode: 255,
      stdout: '',
      stderr: 'sysctl: cannot stat /proc/sys/net/foo/bar: No such file or directory\n',
    });
    expect(sh(m, 'a', 'cat /proc/sys/net/foo')).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: 'cat: /proc/sys/net/foo: No such file or directory\n',
    });
    startAll(m, ['a'], configText('nftables', 'conntrack:\n  tcpBeLiberal: true\n'));
    expect(sh(m, 'a', 'sysctl -n net.netfilter.nf_conntrack_tcp_be_liberal').stdout).toBe('1\n');
  });

  it('uname -r prints the running kernel', () => {
    expect(sh(cluster(), 'old', 'uname -r').stdout).toBe('5.4.0-80-generic\n');
  });
});

describe('ip', () => {
  it('reports a missing kube-ipvs0 exactly like iproute2', () => {
    const m = cluster();
    const absent = { exitCode: 1, stdout: '', stderr: 'Device "kube-ipvs0" does not exist.\n' };
    expect(m.exec('a', ['ip', '-j', 'link', 'show', 'kube-ipvs0'], t0)).toEqual(absent);
    expect(m.exec('a', ['ip', 'link', 'show', 'kube-ipvs0'], t0)).toEqual(absent);
    expect(sh(m, 'a', 'ip link del kube-ipvs0')).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: 'Cannot find device "kube-ipvs0"\n',
    });
  });

  it('shows kube-ipvs0 as a DOWN dummy link holding every service IP', () => {
    const m = cluster();
    startAll(m, ['a'], configText('ipvs'));
    const [link] = JSON.parse(sh(m, 'a', 'ip -j link show kube-ipvs0').stdout) as Record<
      string,
      unknown
    >[];
    expect(link).toMatchObject({
      ifname: 'kube-ipvs0',
      flags: ['BROADCAST', 'NOARP'],
      operstate: 'DOWN',
      link_type: 'ether',
      mtu: 1500,
    });
    expect(sh(m, 'a', 'ip link show kube-ipvs0').stdout).toMatch(
      /^3: kube-ipvs0: <BROADCAST,NOARP> mtu 1500 qdisc noop state DOWN mode DEFAULT group default qlen 1000\n {4}link\/ether ([0-9a-f]{2}:){5}[0-9a-f]{2} brd ff:ff:ff:ff:ff:ff\n$/,
    );
    const addrs = JSON.parse(sh(m, 'a', 'ip -j addr show kube-ipvs0').stdout) as {
      addr_info: { local: string; prefixlen: number }[];
    }[];
    expect(addrs[0]?.addr_info.map((a) => `${a.local}/${a.prefixlen}`)).toEqual([
      '10.96.10.10/32',
      '10.96.20.20/32',
    ]);
    const all = JSON.parse(sh(m, 'b', 'ip -j addr').stdout) as {
      ifname: string;
      addr_info: { local: string }[];
    }[];
    expect(all.map((i) => [i.ifname, i.addr_info.map((a) => a.local)])).toEqual([
      ['lo', ['127.0.0.1', '::1']],
      ['eth0', ['10.0.1.21']],
      ['eth1', ['192.168.50.21']],
    ]);
  });

  it('keeps only interfaces that are up with `show up`, so not kube-ipvs0', () => {
    const m = cluster();
    startAll(m, ['a'], configText('ipvs'));
    const names = (line: string): string[] =>
      (JSON.parse(sh(m, 'a', line).stdout) as { ifname: string }[]).map((i) => i.ifname);
    expect(names('ip -j addr')).toContain('kube-ipvs0');
    const up = names('ip -j addr show up');
    expect(up).not.toContain('kube-ipvs0');
    expect(up).toEqual(names('ip -j addr').filter((n) => n !== 'kube-ipvs0'));
    expect(names('ip -j link show up')).toEqual(up);
    // A named device that is down is listed by nothing, and is not "missing".
    expect(sh(m, 'a', 'ip -j addr show dev kube-ipvs0 up')).toMatchObject({ exitCode: 0 });
  });
});

describe('shell handling', () => {
  it('exits 127 with command not found', () => {
    const m = cluster();
    expect(m.exec('a', ['modprobe', 'ip_vs'], t0)).toEqual({
      exitCode: 127,
      stdout: '',
      stderr: 'modprobe: command not found\n',
    });
    expect(sh(m, 'a', 'foo --bar')).toEqual({
      exitCode: 127,
      stdout: '',
      stderr: 'sh: line 1: foo: command not found\n',
    });
  });

  it('runs pipes, sequences and redirections', () => {
    const m = cluster();
    expect(sh(m, 'a', 'uname -r | head -n 1 && echo ok || echo no')).toMatchObject({
      exitCode: 0,
      stdout: '6.8.0-51-generic\nok\n',
    });
    expect(sh(m, 'a', 'ip link show kube-ipvs0 2>&1 | grep -c exist')).toMatchObject({
      stdout: '1\n',
    });
    expect(sh(m, 'a', 'ip link show kube-ipvs0 2>/dev/null; echo $?').stderr).toBe('');
    expect(m.exec('a', ['sudo', 'nsenter', '-t', '1', '-n', '--', 'uname', '-r'], t0).stdout).toBe(
      '6.8.0-51-generic\n',
    );
  });
});
