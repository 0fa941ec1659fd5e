/** kube-proxy's command-line flags as configuration, for a DaemonSet that runs without --config. */
import type { KubeProxyConfiguration } from '../../core/kube-proxy-config.js';
import { FLAG_KEYS, type FlagKind } from '../../core/kube-proxy-flags.js';

function flagValue(raw: string, kind: FlagKind): unknown {
  const list = (): string[] =>
    raw
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
  switch (kind) {
    case 'string':
      return raw;
    case 'bool':
      return raw === 'true' ? true : raw === 'false' ? false : raw;
    case 'int':
      return /^-?\d+$/.test(raw) ? Number(raw) : raw;
    case 'list':
      return list();
    case 'gates':
      return Object.fromEntries(
        list().map((pair) => {
          const [gate = '', value = ''] = pair.split('=');
          return [
            gate.trim(),
            value.trim() === 'true' ? true : value.trim() === 'false' ? false : value,
          ];
        }),
      );
  }
}

/** The KubeProxyConfiguration that a set of flags amounts to; unknown flags are left out. */
export function configFromFlags(flags: ReadonlyMap<string, string>): KubeProxyConfiguration {
  const config: Record<string, unknown> = {};
  for (const [flag, raw] of flags) {
    const entry = FLAG_KEYS[flag];
    if (entry === undefined) continue;
    const [path, kind] = entry;
    const [section, key] = path.split('.');
    if (section === undefined) continue;
    if (key === undefined) {
      config[section] = flagValue(raw, kind);
    } else {
      const existing = config[section];
      const target =
        typeof existing === 'object' && existing !== null
          ? (existing as Record<string, unknown>)
          : {};
      target[key] = flagValue(raw, kind);
      config[section] = target;
    }
  }
  return config;
}
