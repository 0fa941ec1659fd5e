import { describe, expect, it } from 'vitest';
import { nodePortServices, serviceName } from '../../../../src/checks/support/services.js';
import { service } from '../../../fixtures/checks-b.js';

describe('nodePortServices', () => {
  it('skips LoadBalancers without NodePorts (allocateLoadBalancerNodePorts: false)', () => {
    const noNodePort = service('shop', 'lb', 'LoadBalancer');
    expect(nodePortServices([noNodePort])).toEqual([]);
  });

  it('keeps NodePort Services and LoadBalancers that open one', () => {
    const open = [
      service('shop', 'web', 'NodePort', 30080),
      service('shop', 'api', 'LoadBalancer', 31443),
    ];
    expect(nodePortServices([...open, service('shop', 'db', 'ClusterIP')])).toEqual(open);
  });
});

describe('serviceName', () => {
  it('is namespace/name', () => {
    expect(serviceName(service('shop', 'web', 'NodePort'))).toBe('shop/web');
  });
});
