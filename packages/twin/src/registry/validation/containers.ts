// Containers as pkg/apis/core/validation/validation.go checks them (validateContainers,
// validateInitContainers, validateContainerCommon, validateContainerPorts, ValidateEnv,
// ValidateVolumeMounts, validatePullPolicy). Probes, lifecycle hooks, resources and security
// contexts are not checked (see docs/twin.md).

import { fieldError, type FieldError } from '../../apimachinery/field-errors.js';
import { asArray, asRecord, isJsonObject } from '../../apimachinery/types.js';
import { isConfigMapKey, isDNS1123Label, isValidPortName, isValidPortNum } from './names.js';
import { child, index } from './path.js';

export interface ContainerContext {
  /** Volume names that passed validation: mounts must name one of them. */
  volumes: ReadonlySet<string>;
  /** validatePodHostNetworkDeps for a Pod: hostPort must equal containerPort. */
  hostNetworkPod: boolean;
  /** The same rule for a template, where an unset (0) hostPort is still allowed. */
  hostNetworkTemplate: boolean;
}

const protocols = ['SCTP', 'TCP', 'UDP'] as const;
const pullPolicies = ['Always', 'IfNotPresent', 'Never'] as const;
const envFieldPaths = [
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
  'spec.nodeName',
  'spec.serviceAccountName',
  'status.hostIP',
  'status.hostIPs',
  'status.podIP',
  'status.podIPs',
];

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function validatePorts(ports: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  asArray(ports).forEach((raw, i) => {
    const p = asRecord(raw);
    const at = index(path, i);
    const name = str(p['name']);
    if (name !== '') {
      const msgs = isValidPortName(name);
      if (msgs.length > 0)
        for (const m of msgs) errs.push(fieldError.invalid(child(at, 'name'), name, m));
      else if (names.has(name)) errs.push(fieldError.duplicate(child(at, 'name'), name));
      else names.add(name);
    }
    const containerPort = typeof p['containerPort'] === 'number' ? p['containerPort'] : 0;
    if (containerPort === 0) errs.push(fieldError.required(child(at, 'containerPort')));
    else
      for (const m of isValidPortNum(containerPort))
        errs.push(fieldError.invalid(child(at, 'containerPort'), containerPort, m));
    const hostPort = typeof p['hostPort'] === 'number' ? p['hostPort'] : 0;
    if (hostPort !== 0)
      for (const m of isValidPortNum(hostPort))
        errs.push(fieldError.invalid(child(at, 'hostPort'), hostPort, m));
    const protocol = str(p['protocol']);
    if (protocol === '') errs.push(fieldError.required(child(at, 'protocol')));
    else if (!(protocols as readonly string[]).includes(protocol))
      errs.push(fieldError.notSupported(child(at, 'protocol'), protocol, protocols));
  });
  return errs;
}

/** The hostNetwork rule, reported after all containers as validatePodHostNetworkDeps does. */
export function hostNetworkPortErrors(
  containers: unknown,
  path: string,
  ctx: ContainerContext,
): FieldError[] {
  if (!ctx.hostNetworkPod && !ctx.hostNetworkTemplate) return [];
  const errs: FieldError[] = [];
  asArray(containers).forEach((c, i) =>
    asArray(asRecord(c)['ports']).forEach((raw, j) => {
      const p = asRecord(raw);
      const hp = typeof p['hostPort'] === 'number' ? p['hostPort'] : 0;
      const cp = typeof p['containerPort'] === 'number' ? p['containerPort'] : 0;
      if ((ctx.hostNetworkPod || hp !== 0) && hp !== cp)
        errs.push(
          fieldError.invalid(
            child(index(child(index(path, i), 'ports'), j), 'hostPort'),
            hp,
            'must match `containerPort` when `hostNetwork` is true',
          ),
        );
    }),
  );
  return errs;
}

function validateEnv(env: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  asArray(env).forEach((raw, i) => {
    const e = asRecord(raw);
    const at = index(path, i);
    const name = str(e['name']);
    // RelaxedEnvironmentVariableValidation is on by default in 1.33: printable ASCII but '='.
    if (name === '') errs.push(fieldError.required(child(at, 'name')));
    else if ([...name].some((ch) => ch < ' ' || ch > '~' || ch === '='))
      errs.push(
        fieldError.invalid(
          child(at, 'name'),
          name,
          "a valid environment variable name must consist only of printable ASCII characters other than '='",
        ),
      );
    if (!isJsonObject(e['valueFrom'])) return;
    const from = e['valueFrom'];
    const fromPath = child(at, 'valueFrom');
    const sources = ['fieldRef', 'resourceFieldRef', 'configMapKeyRef', 'secretKeyRef'].filter(
      (k) => isJsonObject(from[k]),
    );
    const fieldRef = asRecord(from['fieldRef']);
    if (isJsonObject(from['fieldRef'])) {
      const fp = str(fieldRef['fieldPath']);
      const subscripted = /^metadata\.(labels|annotations)\['.+'\]$/.test(fp);
      if (fp === '') errs.push(fieldError.required(child(fromPath, 'fieldRef', 'fieldPath')));
      else if (!subscripted && !envFieldPaths.includes(fp))
        errs.push(
          fieldError.notSupported(child(fromPath, 'fieldRef', 'fieldPath'), fp, envFieldPaths),
        );
    }
    for (const ref of ['configMapKeyRef', 'secretKeyRef']) {
      if (!isJsonObject(from[ref])) continue;
      const k = str(from[ref]['key']);
      if (k === '') errs.push(fieldError.required(child(fromPath, ref, 'key')));
      else
        for (const m of isConfigMapKey(k))
          errs.push(fieldError.invalid(child(fromPath, ref, 'key'), k, m));
    }
    if (sources.length === 0)
      errs.push(
        fieldError.invalid(
          fromPath,
          '',
          'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`',
        ),
      );
    else if (str(e['value']) !== '')
      errs.push(fieldError.invalid(fromPath, '', 'may not be specified when `value` is not empty'));
    else if (sources.length > 1)
      errs.push(
        fieldError.invalid(fromPath, '', 'may not have more than one field specified at a time'),
      );
  });
  return errs;
}

function validateMounts(mounts: unknown, path: string, ctx: ContainerContext): FieldError[] {
  const errs: FieldError[] = [];
  const paths = new Set<string>();
  asArray(mounts).forEach((raw, i) => {
    const m = asRecord(raw);
    const at = index(path, i);
    const name = str(m['name']);
    const mountPath = str(m['mountPath']);
    if (name === '') errs.push(fieldError.required(child(at, 'name')));
    if (!ctx.volumes.has(name)) errs.push(fieldError.notFound(child(at, 'name'), name));
    if (mountPath === '') errs.push(fieldError.required(child(at, 'mountPath')));
    if (paths.has(mountPath))
      errs.push(fieldError.invalid(child(at, 'mountPath'), mountPath, 'must be unique'));
    paths.add(mountPath);
  });
  return errs;
}

/** validateContainerCommon: what every container needs, in the apiserver's order. */
function validateContainerCommon(
  c: Record<string, unknown>,
  path: string,
  ctx: ContainerContext,
): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(c['name']);
  if (name === '') errs.push(fieldError.required(child(path, 'name')));
  else
    for (const m of isDNS1123Label(name))
      errs.push(fieldError.invalid(child(path, 'name'), name, m));
  if (str(c['image']) === '') errs.push(fieldError.required(child(path, 'image')));
  const tmp = str(c['terminationMessagePolicy']);
  if (tmp === '') errs.push(fieldError.required(child(path, 'terminationMessagePolicy')));
  else if (tmp !== 'File' && tmp !== 'FallbackToLogsOnError')
    errs.push(
      fieldError.notSupported(child(path, 'terminationMessagePolicy'), tmp, [
        'File',
        'FallbackToLogsOnError',
      ]),
    );
  errs.push(...validatePorts(c['ports'], child(path, 'ports')));
  errs.push(...validateEnv(c['env'], child(path, 'env')));
  errs.push(...validateMounts(c['volumeMounts'], child(path, 'volumeMounts'), ctx));
  const pull = str(c['imagePullPolicy']);
  if (pull === '') errs.push(fieldError.required(child(path, 'imagePullPolicy')));
  else if (!(pullPolicies as readonly string[]).includes(pull))
    errs.push(fieldError.notSupported(child(path, 'imagePullPolicy'), pull, pullPolicies));
  return errs;
}

/** AccumulateUniqueHostPorts: the same protocol/hostIP/hostPort twice is a duplicate. */
function hostPortConflicts(
  containers: readonly unknown[],
  path: string,
  seen = new Set<string>(),
): FieldError[] {
  const errs: FieldError[] = [];
  containers.forEach((c, ci) =>
    asArray(asRecord(c)['ports']).forEach((raw, pi) => {
      const p = asRecord(raw);
      const hostPort = typeof p['hostPort'] === 'number' ? p['hostPort'] : 0;
      if (hostPort === 0) return;
      const id = `${str(p['protocol'])}/${str(p['hostIP'])}/${hostPort}`;
      if (seen.has(id))
        errs.push(
          fieldError.duplicate(child(index(child(index(path, ci), 'ports'), pi), 'hostPort'), id),
        );
      else seen.add(id);
    }),
  );
  return errs;
}

export function validateContainers(
  containers: unknown,
  path: string,
  ctx: ContainerContext,
): FieldError[] {
  const list = asArray(containers);
  if (list.length === 0) return [fieldError.required(path)];
  const errs: FieldError[] = [];
  const names = new Set<string>();
  list.forEach((raw, i) => {
    const c = asRecord(raw);
    const at = index(path, i);
    errs.push(...validateContainerCommon(c, at, ctx));
    const name = str(c['name']);
    if (names.has(name)) errs.push(fieldError.duplicate(child(at, 'name'), name));
    else names.add(name);
    if (c['restartPolicy'] !== undefined)
      errs.push(
        fieldError.forbidden(child(at, 'restartPolicy'), 'may not be set for non-init containers'),
      );
  });
  return [...errs, ...hostPortConflicts(list, path)];
}

export function validateInitContainers(
  containers: unknown,
  regular: unknown,
  path: string,
  ctx: ContainerContext,
): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set(asArray(regular).map((c) => str(asRecord(c)['name'])));
  asArray(containers).forEach((raw, i) => {
    const c = asRecord(raw);
    const at = index(path, i);
    errs.push(...validateContainerCommon(c, at, ctx));
    const policy = c['restartPolicy'];
    if (policy !== undefined && policy !== 'Always')
      errs.push(fieldError.notSupported(child(at, 'restartPolicy'), policy, ['Always']));
    const name = str(c['name']);
    if (names.has(name)) errs.push(fieldError.duplicate(child(at, 'name'), name));
    else if (name !== '') names.add(name);
    errs.push(...hostPortConflicts([c], path));
    if (policy !== 'Always')
      for (const f of ['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe'])
        if (c[f] !== undefined)
          errs.push(
            fieldError.forbidden(
              child(at, f),
              'may not be set for init containers without restartPolicy=Always',
            ),
          );
  });
  return errs;
}
