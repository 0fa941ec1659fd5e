import { describe, expect, it } from 'vitest';
import {
  KEEP_ALL_SNIPPET,
  nodePortAddressesSetting,
} from '../../../../src/checks/support/node-ports.js';
import { ctxOf, flagsDaemonSet } from '../../../fixtures/checks-b.js';

describe('nodePortAddressesSetting', () => {
  it('reads --nodeport-addresses when kube-proxy runs on flags', () => {
    const set = ctxOf({
      kubeSystemDaemonSets: [
        flagsDaemonSet(['--proxy-mode=ipvs', '--nodeport-addresses=10.0.0.0/8']),
      ],
    });
    expect(nodePortAddressesSetting(set)).toMatchObject({ kind: 'set', values: ['10.0.0.0/8'] });
    const unset = ctxOf({ kubeSystemDaemonSets: [flagsDaemonSet(['--proxy-mode=ipvs'])] });
    expect(nodePortAddressesSetting(unset)).toMatchObject({
      kind: 'unset',
      where: 'the kube-proxy command line',
    });
  });

  it('is unknown when the configuration cannot be read', () => {
    expect(nodePortAddressesSetting(ctxOf({ kubeSystemConfigMaps: [] }))).toMatchObject({
      kind: 'unknown',
      reason: 'ConfigMap kube-system/kube-proxy does not exist',
    });
  });
});

describe('KEEP_ALL_SNIPPET', () => {
  it('is the flow-style YAML users paste', () => {
    expect(KEEP_ALL_SNIPPET).toBe('nodePortAddresses: ["0.0.0.0/0", "::/0"]');
  });
});
