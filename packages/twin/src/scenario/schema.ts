// The scenario header schema (TWIN.md, a public contract): validated with zod so a bad file fails
// with the document, field and reason. Unknown keys are kept, so newer files still load.

import { z } from 'zod';

export const hostFaults = [
  'kube-proxy-crashloop',
  'nftables-sync-failures',
  'ipvs-cleanup-skipped',
  'not-ready',
  'kernel-reboot-rollback',
  'kubelet-down',
] as const;
export type HostFault = (typeof hostFaults)[number];

const hostSchema = z
  .object({
    match: z.string().min(1),
    /** The host's nft version, or `none` for a host without nft (Bottlerocket, minimal images). */
    nft: z.string().optional(),
    kernel: z.string().optional(),
    addresses: z.array(z.string()).optional(),
    conntrack: z
      .object({
        count: z.number().int().nonnegative().optional(),
        max: z.number().int().positive().optional(),
        invalidPerCpu: z.array(z.number().int().nonnegative()).optional(),
      })
      .loose()
      .optional(),
    routeLocalnet: z.boolean().optional(),
    faults: z.array(z.enum(hostFaults)).optional(),
  })
  .loose();

const scope = {
  verbs: z.array(z.string()).optional(),
  resources: z.array(z.string()).optional(),
};

const faultSchema = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('latency'),
      ms: z.number().nonnegative(),
      rate: z.number().min(0).max(1).optional(),
      ...scope,
    })
    .loose(),
  z
    .object({
      kind: z.literal('error'),
      status: z.union([z.literal(500), z.literal(503)]),
      rate: z.number().min(0).max(1),
      ...scope,
    })
    .loose(),
  z
    .object({
      kind: z.literal('throttle'),
      rate: z.number().min(0).max(1),
      retryAfterSeconds: z.number().nonnegative(),
      ...scope,
    })
    .loose(),
  z
    .object({ kind: z.literal('watch-drop'), everySeconds: z.number().positive(), ...scope })
    .loose(),
  z.object({ kind: z.literal('conflict'), rate: z.number().min(0).max(1), ...scope }).loose(),
  z.object({ kind: z.literal('reset'), rate: z.number().min(0).max(1), ...scope }).loose(),
]);

const nodePoolSchema = z
  .object({
    namePrefix: z.string().regex(/^[a-z0-9]([-a-z0-9.]*)$/, 'must be a lowercase DNS name prefix'),
    count: z.number().int().nonnegative(),
    labels: z.record(z.string(), z.string()).optional(),
    kernel: z.string().optional(),
    kubeletVersion: z.string().optional(),
    osImage: z.string().optional(),
    containerRuntimeVersion: z.string().optional(),
  })
  .loose();

const servicesSchema = z
  .object({
    count: z.number().int().nonnegative(),
    namespaces: z.number().int().positive().default(1),
    nodePortEvery: z.number().int().nonnegative().default(0),
    endpointsPerService: z.number().int().nonnegative().default(0),
  })
  .loose();

/** What an image holds, for `kubectl exec` into its containers (`match` is a glob: `*` is any run). */
const imageSchema = z
  .object({
    match: z.string().min(1),
    /** The nft in the image, or `none`. */
    nft: z.string().optional(),
    /** The commands the image has; without it, every command the node model answers. */
    tools: z.array(z.string().min(1)).optional(),
  })
  .loose();

const seconds = z.number().nonnegative().optional();

/** Simulated delays; each unset one takes the default in scenario/timings.ts. */
const timingsSchema = z
  .object({
    podStartSeconds: seconds,
    podStopSeconds: seconds,
    configMapSyncSeconds: seconds,
    kubeProxyFirstSyncSeconds: seconds,
    nodeMonitorGracePeriodSeconds: seconds,
  })
  .loose();

export const scenarioHeaderSchema = z.object({
  apiVersion: z.literal('twin.proxy-migrate.io/v1'),
  kind: z.literal('Scenario'),
  metadata: z
    .object({
      name: z.string().regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, 'must be a lowercase DNS label'),
      description: z.string().optional(),
    })
    .loose(),
  spec: z
    .object({
      kubernetesVersion: z.string().regex(/^v\d+\.\d+\.\d+(\S*)$/, 'must look like v1.33.4'),
      hosts: z.array(hostSchema).default([]),
      faults: z.array(faultSchema).default([]),
      images: z.array(imageSchema).default([]),
      timings: timingsSchema.optional(),
      generate: z
        .object({ nodes: z.array(nodePoolSchema).default([]), services: servicesSchema.optional() })
        .loose()
        .optional(),
    })
    .loose(),
});

export type ScenarioHeader = z.infer<typeof scenarioHeaderSchema>;
export type HostSpec = z.infer<typeof hostSchema>;
export type ApiFault = z.infer<typeof faultSchema>;
export type ImageSpec = z.infer<typeof imageSchema>;
export type ScenarioTimings = z.infer<typeof timingsSchema>;
export type NodePool = z.infer<typeof nodePoolSchema>;
export type GeneratedServices = z.infer<typeof servicesSchema>;
