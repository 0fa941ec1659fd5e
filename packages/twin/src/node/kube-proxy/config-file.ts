// Decoding a KubeProxyConfiguration file the way kube-proxy does: YAML errors and a wrong
// apiVersion/kind fail the start; unknown fields fail strict decoding, after which kube-proxy
// retries leniently and logs the strict error (so a typo'd key is silently ignored).

import { parseDocument } from 'yaml';
import { isJsonObject, type JsonObject } from '../../apimachinery/types.js';

export const kubeProxyApiVersion = 'kubeproxy.config.k8s.io/v1alpha1';

export type DecodeResult =
  | { readonly ok: true; readonly raw: JsonObject; readonly strictError: string | undefined }
  | { readonly ok: false; readonly error: string };

/** v1alpha1 field names (json tags of staging/src/k8s.io/kube-proxy/config/v1alpha1/types.go). */
const knownFields: Record<string, readonly string[] | 'any'> = {
  apiVersion: [],
  kind: [],
  featureGates: 'any',
  clientConnection: ['kubeconfig', 'acceptContentTypes', 'contentType', 'qps', 'burst'],
  logging: 'any',
  hostnameOverride: [],
  bindAddress: [],
  healthzBindAddress: [],
  metricsBindAddress: [],
  bindAddressHardFail: [],
  enableProfiling: [],
  showHiddenMetricsForVersion: [],
  mode: [],
  iptables: ['masqueradeBit', 'masqueradeAll', 'localhostNodePorts', 'syncPeriod', 'minSyncPeriod'],
  ipvs: [
    'syncPeriod',
    'minSyncPeriod',
    'scheduler',
    'excludeCIDRs',
    'strictARP',
    'tcpTimeout',
    'tcpFinTimeout',
    'udpTimeout',
  ],
  nftables: ['masqueradeBit', 'masqueradeAll', 'syncPeriod', 'minSyncPeriod'],
  winkernel: [
    'networkName',
    'sourceVip',
    'enableDSR',
    'rootHnsEndpointName',
    'forwardHealthCheckVip',
  ],
  detectLocalMode: [],
  detectLocal: ['bridgeInterface', 'interfaceNamePrefix'],
  clusterCIDR: [],
  nodePortAddresses: [],
  oomScoreAdj: [],
  conntrack: [
    'maxPerCore',
    'min',
    'tcpEstablishedTimeout',
    'tcpCloseWaitTimeout',
    'tcpBeLiberal',
    'udpTimeout',
    'udpStreamTimeout',
  ],
  configSyncPeriod: [],
  portRange: [],
  windowsRunAsService: [],
};

function unknownFields(raw: JsonObject): string[] {
  const unknown: string[] = [];
  for (const [key, value] of Object.entries(raw)) {
    const known = knownFields[key];
    if (known === undefined) unknown.push(key);
    else if (known !== 'any' && known.length > 0 && isJsonObject(value))
      for (const sub of Object.keys(value)) if (!known.includes(sub)) unknown.push(`${key}.${sub}`);
  }
  return unknown;
}

/** go-yaml's wording for the parse errors the npm parser reports under other names. */
function goYamlMessage(code: string): string {
  if (code === 'BLOCK_AS_IMPLICIT_KEY') return 'mapping values are not allowed in this context';
  if (code === 'TAB_AS_INDENT') return 'found character that cannot start any token';
  if (code === 'MISSING_CHAR' || code === 'UNEXPECTED_TOKEN') return "could not find expected ':'";
  return 'did not find expected key';
}

/** Every kube-proxy of a DaemonSet reads the same file: decode each distinct text once. */
const decoded = new Map<string, DecodeResult>();

export function decodeConfigFile(text: string): DecodeResult {
  const cached = decoded.get(text);
  if (cached) return cached;
  const result = decode(text);
  if (decoded.size >= 64) decoded.clear();
  decoded.set(text, result);
  return result;
}

function decode(text: string): DecodeResult {
  const doc = parseDocument(text, { uniqueKeys: false });
  const first = doc.errors[0];
  if (first) {
    const line = first.linePos?.[0].line ?? 1;
    return {
      ok: false,
      error: `failed to decode: error converting YAML to JSON: yaml: line ${line}: ${goYamlMessage(first.code)}`,
    };
  }
  const value: unknown = doc.toJS();
  const raw: JsonObject = isJsonObject(value) ? value : {};
  const json = JSON.stringify(raw);
  if (typeof raw['kind'] !== 'string' || raw['kind'] === '')
    return { ok: false, error: `failed to decode: Object 'Kind' is missing in '${json}'` };
  if (typeof raw['apiVersion'] !== 'string' || raw['apiVersion'] === '')
    return { ok: false, error: `failed to decode: Object 'apiVersion' is missing in '${json}'` };
  if (raw['apiVersion'] !== kubeProxyApiVersion || raw['kind'] !== 'KubeProxyConfiguration')
    return {
      ok: false,
      error: `failed to decode: no kind "${raw['kind']}" is registered for version "${raw['apiVersion']}" in scheme "pkg/proxy/apis/config/scheme/scheme.go:29"`,
    };
  const unknown = unknownFields(raw);
  const strictError =
    unknown.length === 0
      ? undefined
      : `strict decoding error: ${unknown.map((f) => `unknown field "${f}"`).join(', ')}`;
  return { ok: true, raw, strictError };
}
