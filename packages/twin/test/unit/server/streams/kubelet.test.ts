import { describe, expect, it } from 'vitest';
import type { JsonObject, KubeObject } from '../../../../src/apimachinery/types.js';
import { containerLogError } from '../../../../src/server/streams/log-status.js';
import { dialError, encodeValues, kubeletURL } from '../../../../src/server/streams/kubelet.js';

function pod(status: JsonObject): KubeObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns' }, status };
}
const cs = (extra: JsonObject): JsonObject => ({ containerStatuses: [{ name: 'c', ...extra }] });

describe('the kubelet’s log checks (validateContainerLogStatus)', () => {
  it('refuses --previous without a terminated previous container', () => {
    const running = pod(cs({ state: { running: {} }, lastState: {} }));
    expect(containerLogError(running, 'c', true)).toBe(
      'previous terminated container "c" in pod "p" not found',
    );
    expect(containerLogError(running, 'c', false)).toBeUndefined();
    const restarted = pod(
      cs({ state: { running: {} }, lastState: { terminated: { containerID: 'containerd://1' } } }),
    );
    expect(containerLogError(restarted, 'c', true)).toBeUndefined();
  });

  it('names the waiting reason, or the missing status', () => {
    expect(
      containerLogError(
        pod(cs({ state: { waiting: { reason: 'ContainerCreating' } } })),
        'c',
        false,
      ),
    ).toBe('container "c" in pod "p" is waiting to start: ContainerCreating');
    expect(
      containerLogError(pod(cs({ state: { waiting: { reason: 'ErrImagePull' } } })), 'c', false),
    ).toBe('container "c" in pod "p" is waiting to start: image can\'t be pulled');
    expect(containerLogError(pod({ phase: 'Pending' }), 'c', false)).toBe(
      'container "c" in pod "p" is not available',
    );
    // CrashLoopBackOff: the last terminated container's log is served.
    const backoff = pod(
      cs({
        state: { waiting: { reason: 'CrashLoopBackOff' } },
        lastState: { terminated: { containerID: 'containerd://1' } },
      }),
    );
    expect(containerLogError(backoff, 'c', false)).toBeUndefined();
    expect(containerLogError(pod({ phase: 'Running' }), 'c', false)).toBeUndefined();
  });
});

describe('the kubelet URL', () => {
  it('encodes query values as Go’s url.Values does', () => {
    expect(
      encodeValues([
        ['output', '1'],
        ['command', 'sh'],
        ['command', "a b*'~"],
        ['error', '1'],
      ]),
    ).toBe('command=sh&command=a+b%2A%27~&error=1&output=1');
    expect(kubeletURL('10.0.1.21', '/exec/ns/p/c', 'command=ls')).toBe(
      'https://10.0.1.21:10250/exec/ns/p/c?command=ls',
    );
    expect(dialError('fd00::5')).toBe('dial tcp [fd00::5]:10250: connect: connection refused');
  });
});
