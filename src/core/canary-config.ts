/**
 * What the canary runs with, wherever kube-proxy's configuration lives: a rewritten copy of the
 * ConfigMap its --config file comes from, or, without --config, its flags rewritten. A cluster on
 * nftables already has nothing to move.
 */
import type { ConfigMapContent } from './actions.js';
import { canaryConfigMap } from './canary-configmap.js';
import { nftablesFlags } from './canary-flags.js';
import type { Container, KubeConfigMap } from './kube.js';
import { resolveMode, type ConfigSource } from './kube-proxy-config.js';
import { shown } from './nftables-config.js';

export type CanaryConfig =
  | {
      ok: true;
      kind: 'configmap';
      content: ConfigMapContent;
      /** The ConfigMap it is copied from. */
      from: { name: string; content: ConfigMapContent };
      changes: string[];
      dropped: string[];
    }
  | { ok: true; kind: 'flags'; container: Container; changes: string[]; dropped: string[] }
  | { ok: false; problem: string };

export function configMapContent(cm: KubeConfigMap): ConfigMapContent {
  return {
    data: { ...cm.data },
    labels: { ...cm.metadata.labels },
    annotations: { ...cm.metadata.annotations },
  };
}

export interface CanaryConfigInput {
  /** `DaemonSet ns/name`, for problems. */
  name: string;
  container: Container;
  flags: Map<string, string>;
  source: Exclude<ConfigSource, { kind: 'unresolved' }>;
  configMap: KubeConfigMap | undefined;
  tcpBeLiberal: boolean;
}

export function canaryConfig(input: CanaryConfigInput): CanaryConfig {
  const { name, container, flags, source, configMap: cm, tcpBeLiberal } = input;
  const already: CanaryConfig = { ok: false, problem: `${name} runs nftables mode already` };
  if (source.kind === 'flags') {
    if (resolveMode(flags, undefined).effective === 'nftables') return already;
    return { ok: true, kind: 'flags', ...nftablesFlags(container, { tcpBeLiberal }) };
  }
  if (cm?.metadata.name !== source.configMap) {
    return { ok: false, problem: `${name} reads ConfigMap ${source.configMap}, not given` };
  }
  const built = canaryConfigMap(cm, source.key, { tcpBeLiberal });
  if (!built.ok) return built;
  if (resolveMode(flags, built.current).effective === 'nftables') return already;
  const changes = [`mode: ${shown(built.current.mode ?? '')} → nftables`];
  for (const c of built.carryOver.carried) {
    if (c.note === 'unchanged' || c.note === 'already set') continue;
    const arrow = c.from === c.to ? c.to : `${c.from} → ${c.to}`;
    changes.push(`${arrow}: ${shown(c.value)}${c.note === undefined ? '' : ` (${c.note})`}`);
  }
  return {
    ok: true,
    kind: 'configmap',
    content: built.content,
    from: { name: cm.metadata.name, content: configMapContent(cm) },
    changes,
    dropped: built.carryOver.dropped.map((d) => `${d.key}: ${shown(d.value)} (${d.why})`),
  };
}
