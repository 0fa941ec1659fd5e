import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseKubeProxyConfiguration } from '../../../src/core/kube-proxy-config.js';
import { nftablesCarryOver, nftablesConfigText } from '../../../src/core/nftables-config.js';
import { scenarioConfigMap } from '../../fixtures/scenarios.js';

function config(text: string) {
  const parsed = parseKubeProxyConfiguration(text);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.config;
}

describe('nftablesConfigText', () => {
  const eks = scenarioConfigMap('eks-al2-al2023', 'kube-proxy-config').data!['config']!;

  it('is the rewritten configuration, read back identically by a YAML 1.1 reader', () => {
    const carry = nftablesCarryOver(config(eks), { tcpBeLiberal: true });
    const text = nftablesConfigText(carry, eks);
    expect(parse(text, { version: '1.1' })).toEqual(carry.config);
    expect(text).toContain('mode: nftables\n');
    // EKS's configuration has no nftables: block; it comes last, and the text ends as it did.
    expect(
      text.endsWith('nftables:\n  masqueradeAll: false\n  masqueradeBit: 14\n  syncPeriod: 30s'),
    ).toBe(true);
  });

  it('keeps yes/on strings strings, as kube-proxy’s YAML 1.1 reader needs', () => {
    const text =
      'kind: KubeProxyConfiguration\nmode: "ipvs"\ndetectLocal:\n  interfaceNamePrefix: "on"\nhostnameOverride: "yes"\n';
    const out = nftablesConfigText(nftablesCarryOver(config(text)), text);
    expect(out).toContain('interfaceNamePrefix: "on"');
    expect(out).toContain('hostnameOverride: "yes"');
    expect(parse(out, { version: '1.1' })).toMatchObject({
      detectLocal: { interfaceNamePrefix: 'on' },
      hostnameOverride: 'yes',
    });
    expect(out.endsWith('\n')).toBe(true);
  });
});
