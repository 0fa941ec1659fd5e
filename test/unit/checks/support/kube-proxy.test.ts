import { describe, expect, it } from 'vitest';
import { buildCheckContext } from '../../../../src/checks/context.js';
import {
  configNotRead,
  currentConfig,
  isUnset,
  proxyReplacement,
} from '../../../../src/checks/support/kube-proxy.js';
import { aksDaemonSet, ciliumConfigMap } from '../../../fixtures/checks-a.js';
import { snapshotOf } from '../../../fixtures/kube.js';

describe('proxyReplacement', () => {
  it('recognises no replacement in an ordinary cluster', () => {
    expect(proxyReplacement(snapshotOf())).toBeUndefined();
  });
});

describe('currentConfig', () => {
  it('reads the config file, else the flags of a DaemonSet without --config', () => {
    expect(currentConfig(buildCheckContext(snapshotOf()))?.mode).toBe('ipvs');
    const flags = buildCheckContext(
      snapshotOf({ kubeSystemDaemonSets: [aksDaemonSet()], kubeSystemConfigMaps: [] }),
    );
    expect(currentConfig(flags)).toMatchObject({ clusterCIDR: '10.244.0.0/16' });
    const none = buildCheckContext(snapshotOf({ kubeSystemConfigMaps: [] }));
    expect(currentConfig(none)).toBeUndefined();
  });
});

describe('configNotRead', () => {
  it('says not applicable when a CNI replaces kube-proxy, else points at kube-proxy-present', () => {
    const cilium = buildCheckContext(
      snapshotOf({ kubeSystemDaemonSets: [], kubeSystemConfigMaps: [ciliumConfigMap('true')] }),
    );
    expect(configNotRead(cilium, 'x', 'y').title).toBe(
      'Not applicable: Cilium kube-proxy replacement replaces kube-proxy',
    );
    const missing = configNotRead(
      buildCheckContext(snapshotOf({ kubeSystemDaemonSets: [] })),
      'x',
      'y',
    );
    expect(missing.title).toBe("Could not check y: kube-proxy's configuration was not read");
    expect(missing.detail).toContain('See kube-proxy-present.');
  });
});

describe('isUnset', () => {
  it('treats empty values and zero durations as unset', () => {
    for (const value of [undefined, null, '', [], {}, '0s', '0', '0.0ms']) {
      expect(isUnset(value)).toBe(true);
    }
    for (const value of ['30s', ['10.0.0.0/8'], { a: 1 }, false, 0]) {
      expect(isUnset(value)).toBe(false);
    }
  });
});
