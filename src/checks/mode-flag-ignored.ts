// Risk: config flags (e.g. --proxy-mode=nftables) next to --config look like a switch but do nothing
// (kubernetes/kubernetes#98302). Playbook "The 11 traps" §4; reference/kube-proxy-facts.md §2, §3.
import { KUBE_SYSTEM } from '../core/cluster-overview.js';
import { finding } from '../core/findings.js';
import type { KubeProxyConfiguration } from '../core/kube-proxy-config.js';
import { FLAG_KEYS } from '../core/kube-proxy-flags.js';
import { configNotRead } from './support/kube-proxy.js';
import type { Check } from './types.js';

const ID = 'mode-flag-ignored';

/** What the config file says for the key a flag names, for comparison in the detail. */
function configValue(config: KubeProxyConfiguration | undefined, path: string): string {
  if (config === undefined) return 'unknown';
  let value: unknown = config;
  for (const part of path.split('.')) {
    value =
      typeof value === 'object' && value !== null
        ? (value as Record<string, unknown>)[part]
        : undefined;
  }
  return value === undefined ? 'not set' : JSON.stringify(value);
}

export const modeFlagIgnored: Check = {
  id: ID,
  title: 'No config flags ignored next to --config',
  run(ctx) {
    const mode = ctx.kubeProxy.mode;
    if (mode === undefined) return [configNotRead(ctx, ID, 'for ignored flags')];
    if (mode.ignoredFlags.length === 0) return [];
    const ds = ctx.kubeProxy.daemonSet ?? 'kube-proxy';
    const source = ctx.kubeProxy.source;
    const cm =
      source?.kind === 'configmap'
        ? `ConfigMap ${KUBE_SYSTEM}/${source.configMap} (${source.key})`
        : 'the config file';
    const rows = mode.ignoredFlags.map((text) => {
      const name = text.replace(/^-+/, '').split('=')[0] ?? '';
      const path = FLAG_KEYS[name]?.[0];
      return path === undefined
        ? `${text} (no config key known)`
        : `${text} → ${path}, which the config file sets to ${configValue(ctx.kubeProxy.config, path)}`;
    });
    const proxyMode = mode.ignoredFlags.find((f) => f.startsWith('--proxy-mode='));
    return [
      finding({
        check: ID,
        severity: 'warn',
        scope: { kind: 'cluster', name: ctx.snapshot.cluster },
        subjects: [`${KUBE_SYSTEM}/${ds}`],
        title: `${mode.ignoredFlags.length} kube-proxy flag(s) on DaemonSet ${KUBE_SYSTEM}/${ds} are ignored because --config is set: ${mode.ignoredFlags.join(' ')}`,
        detail:
          `When kube-proxy starts with --config, it ignores config flags (kubernetes/kubernetes#98302): ${rows.join('; ')}.` +
          (proxyMode === undefined
            ? ''
            : ` ${proxyMode} does not switch the mode: kube-proxy runs ${mode.effective}, as the config file says.`),
        remedy: `Move each setting into ${cm} and delete the flags from the DaemonSet, then confirm the mode from kube-proxy's log rather than from the rollout.`,
        commands: [
          `kubectl -n ${KUBE_SYSTEM} get ds ${ds} -o jsonpath='{.spec.template.spec.containers[0].command}'`,
          `kubectl -n ${KUBE_SYSTEM} logs ds/${ds} | grep -i 'proxier\\|nftables'`,
        ],
      }),
    ];
  },
};
