/**
 * The probe pod: host network, pinned to one node, NET_ADMIN (enough for nft, ipvsadm and
 * conntrack to read the host's tables) and SYS_CHROOT only, the host's / mounted read-only at
 * HOST_ROOT (the host's own nft is read through `chroot`: the image's nft says nothing about the
 * host), and a hard lifetime so a crashed bot never leaves it running for long.
 */
import { createHash } from 'node:crypto';
import type { V1Pod } from '@kubernetes/client-node';
import { HOST_ROOT } from '../../ports/node-shell.js';

export const PROBE_LABEL = 'proxy-migrate.io/probe';
/**
 * The run a probe pod belongs to, as a label (the annotation says the same for people) so a run
 * resumed in another process, and a bot starting up, can select a run's pods without a list of
 * names: a killed process's pods are found and deleted, not left to their lifetime.
 */
export const PROBE_RUN_LABEL = 'proxy-migrate.io/run';
export const PROBE_CONTAINER = 'probe';
/** After this the kubelet kills the pod even if the bot never comes back to delete it. */
export const PROBE_LIFETIME_SECONDS = 900;

/**
 * One name per (run, node, generation): a run resumed elsewhere finds its own pod instead of
 * making another; a pod that ended (its lifetime ran out) is replaced by the next generation.
 */
export function probePodName(runId: string, node: string, generation = 0): string {
  const hash = createHash('sha256')
    .update(`${runId}\0${node}\0${generation}`)
    .digest('hex')
    .slice(0, 12);
  return `proxy-migrate-probe-${hash}`;
}

export interface ProbePodInput {
  name: string;
  node: string;
  namespace: string;
  image: string;
  runId: string;
}

export function probePodManifest(input: ProbePodInput): V1Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: input.name,
      namespace: input.namespace,
      labels: {
        [PROBE_LABEL]: 'true',
        [PROBE_RUN_LABEL]: input.runId,
        'app.kubernetes.io/name': 'proxy-migrate-probe',
        'app.kubernetes.io/managed-by': 'proxy-migrate',
      },
      annotations: { 'proxy-migrate.io/run': input.runId, 'proxy-migrate.io/node': input.node },
    },
    spec: {
      nodeName: input.node,
      hostNetwork: true,
      dnsPolicy: 'ClusterFirstWithHostNet',
      restartPolicy: 'Never',
      automountServiceAccountToken: false,
      terminationGracePeriodSeconds: 0,
      activeDeadlineSeconds: PROBE_LIFETIME_SECONDS,
      // A probe must reach cordoned, tainted and NotReady nodes too.
      tolerations: [{ operator: 'Exists' }],
      volumes: [{ name: 'host-root', hostPath: { path: '/', type: 'Directory' } }],
      containers: [
        {
          name: PROBE_CONTAINER,
          image: input.image,
          command: ['sleep', String(PROBE_LIFETIME_SECONDS)],
          securityContext: {
            allowPrivilegeEscalation: false,
            capabilities: { drop: ['ALL'], add: ['NET_ADMIN', 'SYS_CHROOT'] },
          },
          volumeMounts: [{ name: 'host-root', mountPath: HOST_ROOT, readOnly: true }],
          resources: { requests: { cpu: '10m', memory: '16Mi' }, limits: { memory: '64Mi' } },
        },
      ],
    },
  };
}
