// The Linux capabilities a container's processes hold, as containerd computes them from the
// container's securityContext (internal/cri/opts/spec_opts.go WithCapabilities): privileged gets
// every capability; otherwise the runtime's default set, `add: [ALL]` / `drop: [ALL]` first, then
// the named adds, then the named drops. A process that does not run as root holds none.

import type { JsonObject } from '../../apimachinery/types.js';
import { asArray, asRecord, asString } from '../../apimachinery/types.js';

/** containerd's default set (pkg/oci/spec.go defaultUnixCaps), without the CAP_ prefix. */
export const defaultCapabilities: readonly string[] = [
  'CHOWN',
  'DAC_OVERRIDE',
  'FSETID',
  'FOWNER',
  'MKNOD',
  'NET_RAW',
  'SETGID',
  'SETUID',
  'SETFCAP',
  'SETPCAP',
  'NET_BIND_SERVICE',
  'SYS_CHROOT',
  'KILL',
  'AUDIT_WRITE',
];

/** The capabilities the twin's commands check; ALL stands for every one of them. */
const everyCapability: readonly string[] = [
  ...defaultCapabilities,
  'NET_ADMIN',
  'SYS_ADMIN',
  'SYS_PTRACE',
  'SYS_MODULE',
];

const normalise = (cap: string): string => cap.toUpperCase().replace(/^CAP_/, '');

function runsAsRoot(podSecurity: JsonObject, security: JsonObject): boolean {
  const uid = security['runAsUser'] ?? podSecurity['runAsUser'];
  return uid === undefined || uid === 0;
}

export function containerCapabilities(
  podSpec: JsonObject,
  container: JsonObject,
): ReadonlySet<string> {
  const security = asRecord(container['securityContext']);
  if (!runsAsRoot(asRecord(podSpec['securityContext']), security)) return new Set();
  if (security['privileged'] === true) return new Set(everyCapability);
  const caps = asRecord(security['capabilities']);
  const add = asArray(caps['add']).map((c) => normalise(asString(c)));
  const drop = asArray(caps['drop']).map((c) => normalise(asString(c)));
  let held = new Set(defaultCapabilities);
  if (add.includes('ALL')) held = new Set(everyCapability);
  if (drop.includes('ALL')) held = new Set();
  for (const c of add) if (c !== 'ALL') held.add(c);
  for (const c of drop) if (c !== 'ALL') held.delete(c);
  return held;
}
