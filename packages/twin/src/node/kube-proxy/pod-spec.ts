// Reading a kube-proxy Pod the way the kubelet runs it: which container is kube-proxy, its full
// argv (command + args, or the line inside `sh -c`), its environment, the file a ConfigMap volume
// puts at a path, and the version its image tag says.

import { asArray, asRecord, asString, isJsonObject } from '../../apimachinery/types.js';
import type { JsonObject, KubeObject } from '../../apimachinery/types.js';
import { splitShellWords } from '../commands/shell-words.js';
import { parseKubeVersion, type Version } from '../versions.js';

function containers(pod: KubeObject): JsonObject[] {
  return asArray(asRecord(pod['spec'])['containers']).filter(isJsonObject);
}

function mentionsKubeProxy(c: JsonObject): boolean {
  return [...asArray(c['command']), ...asArray(c['args'])].some((a) =>
    asString(a).includes('kube-proxy'),
  );
}

/** The container named kube-proxy, else the first one running kube-proxy, else the first. */
export function kubeProxyContainer(pod: KubeObject): JsonObject {
  const all = containers(pod);
  return all.find((c) => c['name'] === 'kube-proxy') ?? all.find(mentionsKubeProxy) ?? all[0] ?? {};
}

/** The arguments after the kube-proxy binary, unwrapping `sh -c "kube-proxy …"`. */
export function kubeProxyArgv(container: JsonObject): string[] {
  const argv = [...asArray(container['command']), ...asArray(container['args'])].map((a) =>
    asString(a),
  );
  const shell = argv.findIndex((a, i) => a === '-c' && /(^|\/)(ba)?sh$/.test(argv[i - 1] ?? ''));
  const words = shell >= 0 ? splitShellWords(argv[shell + 1] ?? '') : argv;
  const bin = words.findIndex((w) => /(^|\/)kube-proxy$/.test(w));
  return bin >= 0 ? words.slice(bin + 1) : words.filter((w) => w.startsWith('-'));
}

function fieldRefValue(pod: KubeObject, path: string): string {
  if (path === 'spec.nodeName') return asString(asRecord(pod['spec'])['nodeName']);
  if (path === 'metadata.name') return pod.metadata.name ?? '';
  if (path === 'metadata.namespace') return pod.metadata.namespace ?? '';
  if (path.startsWith('status.')) return asString(asRecord(pod['status'])[path.slice(7)]);
  return '';
}

function configMapData(
  configMaps: readonly KubeObject[],
  namespace: string,
  name: string,
): JsonObject | undefined {
  const cm = configMaps.find(
    (c) => c.metadata.name === name && (c.metadata.namespace ?? 'default') === namespace,
  );
  return cm ? asRecord(cm['data']) : undefined;
}

/** The container's environment as the kubelet resolves it (later entries win). */
export function containerEnv(
  pod: KubeObject,
  container: JsonObject,
  configMaps: readonly KubeObject[],
): Record<string, string> {
  const env: Record<string, string> = {};
  const ns = pod.metadata.namespace ?? 'default';
  for (const raw of asArray(container['env'])) {
    const e = asRecord(raw);
    const name = asString(e['name']);
    const from = asRecord(e['valueFrom']);
    if (e['value'] !== undefined) env[name] = expandValue(asString(e['value']), env);
    else if (isJsonObject(from['fieldRef']))
      env[name] = fieldRefValue(pod, asString(from['fieldRef']['fieldPath']));
    else if (isJsonObject(from['configMapKeyRef'])) {
      const ref = from['configMapKeyRef'];
      const data = configMapData(configMaps, ns, asString(ref['name']));
      env[name] = asString(data?.[asString(ref['key'])]);
    } else env[name] = '';
  }
  return env;
}

function expandValue(text: string, env: Record<string, string>): string {
  return text.replace(/\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (whole, n: string) => env[n] ?? whole);
}

/** The text a ConfigMap volume mounts at `path`, and that ConfigMap's name. */
export function configFileText(
  pod: KubeObject,
  container: JsonObject,
  configMaps: readonly KubeObject[],
  path: string,
): { text: string | undefined; configMap: string | undefined } {
  const mounts = asArray(container['volumeMounts']).map(asRecord);
  const mount = mounts
    .filter((m) => path.startsWith(`${asString(m['mountPath']).replace(/\/$/, '')}/`))
    .sort((a, b) => asString(b['mountPath']).length - asString(a['mountPath']).length)[0];
  if (!mount) return { text: undefined, configMap: undefined };
  const relative = path.slice(asString(mount['mountPath']).replace(/\/$/, '').length + 1);
  const volume = asArray(asRecord(pod['spec'])['volumes'])
    .map(asRecord)
    .find((v) => v['name'] === mount['name']);
  const cmRef = asRecord(volume?.['configMap']);
  const name = asString(cmRef['name']);
  if (name === '') return { text: undefined, configMap: undefined };
  const items = asArray(cmRef['items']).map(asRecord);
  const key =
    items.length === 0
      ? relative
      : asString(items.find((i) => asString(i['path']) === relative)?.['key']);
  const data = configMapData(configMaps, pod.metadata.namespace ?? 'default', name);
  const text = data?.[key];
  return { text: typeof text === 'string' ? text : undefined, configMap: name };
}

/** The kube-proxy version from the image tag (`registry.k8s.io/kube-proxy:v1.33.4`), if any. */
export function imageVersion(container: JsonObject): Version | undefined {
  const image = asString(container['image']);
  const tag = image.slice(image.lastIndexOf('/') + 1).split('@')[0] ?? '';
  const colon = tag.indexOf(':');
  return colon < 0 ? undefined : parseKubeVersion(tag.slice(colon + 1));
}
