/**
 * Configuration: one zod schema for the environment, one for the clusters file. `loadConfig(env)`
 * is the only place that reads the environment; everything else receives an {@link AppConfig}.
 * A bad value fails at start with every bad key listed and how to fix it.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, isAbsolute, resolve } from 'node:path';
import { parseDocument } from 'yaml';
import { z } from 'zod';
import { AppError } from './errors.js';
import { DEFAULT_API_RATE_LIMIT, DEFAULT_EXEC_RATE_LIMIT } from './core/token-bucket.js';

export const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof logLevels)[number];

/** Which process is starting: the bot needs Slack's signing secret, a terminal run needs no Slack. */
export type ConfigRole = 'bot' | 'worker' | 'cli';

const envSchema = z.object({
  SLACK_BOT_TOKEN: z
    .string()
    .regex(/^xoxb-/, {
      error:
        'must be the Bot User OAuth Token (xoxb-…) from the Slack app’s “OAuth & Permissions” page',
    })
    .optional(),
  SLACK_SIGNING_SECRET: z
    .string()
    .regex(/^[0-9a-f]{16,}$/i, {
      error: 'must be the Signing Secret from the Slack app’s “Basic Information” page (hex)',
    })
    .optional(),
  SLACK_APP_TOKEN: z
    .string()
    .regex(/^xapp-/, {
      error: 'must be an app-level token (xapp-…) with connections:write; unset it for HTTP mode',
    })
    .optional(),
  /**
   * The app's id (A0…, on the app's "Basic Information" page). When set, requests naming another
   * app are refused; when unset, api_app_id is not checked (and never learnt from a request).
   */
  SLACK_APP_ID: z
    .string()
    .regex(/^A[A-Z0-9]{2,}$/, {
      error: 'must be the App ID (A0…) from the Slack app’s “Basic Information” page',
    })
    .optional(),
  SLACK_API_URL: z
    .url({ error: 'must be an http(s) URL ending in /api/, e.g. https://slack.com/api/' })
    .optional(),
  REDIS_URL: z
    .url({ protocol: /^rediss?$/, error: 'must look like redis://host:6379 or rediss://host:6380' })
    .default('redis://127.0.0.1:6379'),
  PORT: z.coerce
    .number({ error: 'must be a port number' })
    .int()
    .min(0, { error: 'must be between 0 and 65535' })
    .max(65535, { error: 'must be between 0 and 65535' })
    .default(3000),
  CLUSTERS_FILE: z.string().min(1).default('clusters.yaml'),
  LOG_LEVEL: z.enum(logLevels, { error: `must be one of ${logLevels.join(', ')}` }).default('info'),
  QUEUE_PREFIX: z
    .string()
    .regex(/^[a-zA-Z0-9_-]+$/, { error: 'may hold only letters, digits, - and _' })
    .default('proxy-migrate'),
  /** 0 (bot only): no in-process worker; `proxy-migrate worker` processes run the jobs. */
  WORKER_CONCURRENCY: z.coerce.number().int().min(0).max(64).default(4),
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().int().min(1).max(600).default(25),
  /** How long the audit trail is kept (trimmed by time, never by count). */
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).max(3_650).default(400),
  /** Read here rather than by the Kubernetes client, so configuration has one reader. */
  KUBECONFIG: z.string().optional(),
});

const clusterName = z
  .string()
  .max(40, { error: 'must be at most 40 characters' })
  .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, {
    error: 'must be lower-case letters, digits and dashes, like cluster-a',
  });
const channelId = z.string().regex(/^[CGD][A-Z0-9]{2,}$/, {
  error: 'must be a Slack channel id like C0123456789 (channel details → About, at the bottom)',
});
const userId = z.string().regex(/^[UW][A-Z0-9]{2,}$/, {
  error: 'must be a Slack member id like U0123456789 (profile → ⋮ → Copy member ID), not a name',
});
const groupId = z.string().regex(/^S[A-Z0-9]{2,}$/, {
  error: 'must be a Slack user-group id like S0123456789, not the @handle',
});
const labelKey = z
  .string()
  .regex(
    /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/,
    { error: 'must be a Kubernetes label key such as proxy-migrate.io/mode' },
  );

export const DEFAULT_MIGRATION_LABEL = 'proxy-migrate.io/mode';
export const DEFAULT_PROBE_IMAGE = 'ghcr.io/proxy-migrate/probe:0.1.0';
/**
 * Probe pods run here, never in kube-system: pod create and exec there would let the bot run as
 * any of kube-system's ServiceAccounts. The deploy base (and `proxy-migrate connect`) creates it,
 * labelled for Pod Security `privileged` (the probes use the host network and a hostPath).
 */
export const DEFAULT_PROBE_NAMESPACE = 'proxy-migrate-probes';

const clusterSchema = z
  .strictObject({
    name: clusterName,
    kubeconfig: z.string().min(1).optional(),
    context: z.string().min(1).optional(),
    inCluster: z.boolean().default(false),
    channels: z.array(channelId).default([]),
    approvers: z
      .strictObject({
        users: z.array(userId).default([]),
        groups: z.array(groupId).default([]),
      })
      .default({ users: [], groups: [] }),
    fourEyes: z.boolean().default(true),
    /**
     * A rollback by the cutover's requester or an approver (the Rollback button, or the slash
     * command from an approver) needs no second approval unless this is set.
     */
    rollbackNeedsApproval: z.boolean().default(false),
    approvalTtlMinutes: z
      .number()
      .int()
      .min(1)
      .max(24 * 60)
      .default(30),
    migrationLabel: labelKey.default(DEFAULT_MIGRATION_LABEL),
    poolLabel: labelKey.optional(),
    /** How long a node's kube-proxy may take to go (old pod) or come (new pod Ready). */
    swapDeadlineSeconds: z.number().int().min(10).max(3_600).default(120),
    /** How long after Ready a node's dataplane may take to pass every verification. */
    verifyDeadlineSeconds: z.number().int().min(5).max(3_600).default(60),
    /**
     * How often the drift guard checks the migration's invariants while one is in progress, in
     * minutes; 0 turns it off. It posts in the first of `channels`.
     */
    driftCheckMinutes: z
      .number()
      .int()
      .min(0)
      .max(24 * 60)
      .default(10),
    /**
     * The client-side rate limit of every request this process makes to the cluster (reads,
     * writes; all runs together): a token bucket of `qps` a second, up to `burst` at once. Execs
     * have their own, execRateLimit.
     */
    apiRateLimit: z
      .strictObject({
        qps: z.number().min(0.1).max(10_000).default(DEFAULT_API_RATE_LIMIT.qps),
        burst: z.number().int().min(1).max(10_000).default(DEFAULT_API_RATE_LIMIT.burst),
      })
      .default(DEFAULT_API_RATE_LIMIT),
    /**
     * The client-side rate limit of this process's execs into probe pods, a bucket of its own:
     * the API server serves an exec outside API Priority and Fairness, as a stream to one node's
     * kubelet, and probe.concurrency bounds how many are in flight (see token-bucket.ts).
     */
    execRateLimit: z
      .strictObject({
        qps: z.number().min(0.1).max(10_000).default(DEFAULT_EXEC_RATE_LIMIT.qps),
        burst: z.number().int().min(1).max(10_000).default(DEFAULT_EXEC_RATE_LIMIT.burst),
      })
      .default(DEFAULT_EXEC_RATE_LIMIT),
    /** A failed verification or missed deadline after a write rolls the node back. */
    autoRollback: z.boolean().default(true),
    /**
     * EKS only: kube-proxy is not the managed add-on (`aws eks describe-addon` finds none). The
     * API cannot tell the two apart, so the per-node canary is refused on EKS unless this is set.
     */
    selfManagedKubeProxy: z.boolean().default(false),
    probe: z
      .strictObject({
        image: z.string().min(1).default(DEFAULT_PROBE_IMAGE),
        namespace: z
          .string()
          .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, {
            error: 'must be a namespace name (lower-case letters, digits and dashes)',
          })
          .max(63)
          .default(DEFAULT_PROBE_NAMESPACE),
        /** Nodes probed at once during pre-flight. */
        concurrency: z.number().int().min(1).max(200).default(20),
      })
      .default({
        image: DEFAULT_PROBE_IMAGE,
        namespace: DEFAULT_PROBE_NAMESPACE,
        concurrency: 20,
      }),
  })
  .refine((c) => !(c.inCluster && (c.kubeconfig !== undefined || c.context !== undefined)), {
    error: 'inCluster: true cannot be combined with kubeconfig or context; pick one',
  });

const clustersFileSchema = z.strictObject({
  clusters: z
    .array(clusterSchema)
    .min(1, { error: 'list at least one cluster' })
    .superRefine((clusters, ctx) => {
      const seen = new Set<string>();
      clusters.forEach((cluster, i) => {
        if (seen.has(cluster.name)) {
          ctx.addIssue({
            code: 'custom',
            path: [i, 'name'],
            message: `duplicate cluster name "${cluster.name}"; names must be unique`,
          });
        }
        seen.add(cluster.name);
      });
    }),
});

type ParsedCluster = z.infer<typeof clusterSchema>;

/** One cluster as the rest of the product sees it; paths are absolute. */
export interface ClusterConfig extends Omit<ParsedCluster, 'kubeconfig' | 'context' | 'poolLabel'> {
  /** Absolute path; absent means KUBECONFIG / ~/.kube/config (or in-cluster when inCluster). */
  kubeconfig?: string;
  context?: string;
  poolLabel?: string;
}

export interface SlackConfig {
  botToken: string;
  signingSecret?: string;
  appToken?: string;
  apiUrl?: string;
  /** When set, only requests for this app id are served. */
  appId?: string;
}

export interface AppConfig {
  /** Absent only for terminal runs, which never talk to Slack. */
  slack?: SlackConfig;
  redisUrl: string;
  port: number;
  clustersFile: string;
  logLevel: LogLevel;
  queuePrefix: string;
  workerConcurrency: number;
  shutdownGraceMs: number;
  /** How long audit entries are kept. */
  auditRetentionMs: number;
  /** Kubeconfig files for clusters that name none: $KUBECONFIG's list, else ~/.kube/config. */
  defaultKubeconfigs: string[];
  clusters: ClusterConfig[];
}

/** Raised at start with every problem found, each naming its key and the fix. */
export class ConfigError extends AppError {
  readonly problems: string[];
  constructor(problems: string[]) {
    super('CONFIG_INVALID', `Configuration is invalid:\n  - ${problems.join('\n  - ')}`, {
      remedy: 'Fix the keys listed above and start again.',
    });
    this.problems = problems;
  }
}

function formatPath(prefix: string, path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (out, key) => (typeof key === 'number' ? `${out}[${key}]` : `${out}.${String(key)}`),
    prefix,
  );
}

function describeIssues(prefix: string, issues: readonly z.core.$ZodIssue[]): string[] {
  return issues.map((issue) => `${formatPath(prefix, issue.path)}: ${issue.message}`);
}

function expandHome(path: string): string {
  return path === '~' || path.startsWith('~/') ? homedir() + path.slice(1) : path;
}

/** Parses the clusters file's text; `source` names it in errors and anchors relative paths. */
export function parseClustersFile(text: string, source: string): ClusterConfig[] {
  const doc = parseDocument(text, { prettyErrors: true });
  if (doc.errors.length > 0) {
    throw new ConfigError(doc.errors.map((e) => `${source}: YAML ${e.message.split('\n')[0]}`));
  }
  const parsed = clustersFileSchema.safeParse(doc.toJS());
  if (!parsed.success) throw new ConfigError(describeIssues(source, parsed.error.issues));
  const base = dirname(resolve(source));
  return parsed.data.clusters.map((cluster) => finishCluster(cluster, base));
}

/** Resolves the kubeconfig path against `base` and drops absent optional keys. */
function finishCluster(
  { kubeconfig, context, poolLabel, ...rest }: ParsedCluster,
  base: string,
): ClusterConfig {
  return {
    ...rest,
    ...(kubeconfig === undefined ? {} : { kubeconfig: resolve(base, expandHome(kubeconfig)) }),
    ...(context === undefined ? {} : { context }),
    ...(poolLabel === undefined ? {} : { poolLabel }),
  };
}

/**
 * One cluster entry with every default applied, as if it came from a clusters file in the current
 * directory: for a terminal run with `--kubeconfig`, benches and tests. Throws {@link ConfigError}.
 */
export function clusterConfig(entry: z.input<typeof clusterSchema>): ClusterConfig {
  const parsed = clusterSchema.safeParse(entry);
  if (!parsed.success) throw new ConfigError(describeIssues('cluster', parsed.error.issues));
  return finishCluster(parsed.data, process.cwd());
}

function envProblems(env: z.infer<typeof envSchema>, role: ConfigRole): string[] {
  if (role === 'cli') return [];
  const problems: string[] = [];
  if (env.SLACK_BOT_TOKEN === undefined) {
    problems.push('SLACK_BOT_TOKEN: required; the Bot User OAuth Token (xoxb-…) of the Slack app');
  }
  if (role === 'worker' && env.WORKER_CONCURRENCY === 0) {
    problems.push(
      'WORKER_CONCURRENCY: must be at least 1 for a worker (0 is for a bot whose jobs run in `proxy-migrate worker` processes)',
    );
  }
  if (role === 'bot' && env.SLACK_APP_TOKEN === undefined && !env.SLACK_SIGNING_SECRET) {
    problems.push(
      'SLACK_SIGNING_SECRET: required in HTTP mode; copy it from the Slack app’s “Basic Information” page',
    );
  }
  return problems;
}

/** Kubeconfig files for clusters that name none: $KUBECONFIG's list, else ~/.kube/config. */
/**
 * The settings a terminal run shares with the bot (where run state lives), without the Slack
 * and clusters-file requirements of a full load. Throws {@link ConfigError} on a bad value.
 */
export function runStoreSettings(
  env: Record<string, string | undefined>,
): Pick<AppConfig, 'redisUrl' | 'queuePrefix'> & { stateDir: string } {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));
  const parsed = envSchema
    .pick({ REDIS_URL: true, QUEUE_PREFIX: true })
    .extend({ PROXY_MIGRATE_STATE_DIR: z.string().min(1).optional() })
    .safeParse(cleaned);
  if (!parsed.success) throw new ConfigError(describeIssues('env', parsed.error.issues));
  return {
    redisUrl: parsed.data.REDIS_URL,
    queuePrefix: parsed.data.QUEUE_PREFIX,
    stateDir:
      parsed.data.PROXY_MIGRATE_STATE_DIR === undefined
        ? resolve(homedir(), '.proxy-migrate', 'runs')
        : resolve(expandHome(parsed.data.PROXY_MIGRATE_STATE_DIR)),
  };
}

export function defaultKubeconfigs(kubeconfigEnv: string | undefined): string[] {
  return kubeconfigEnv === undefined || kubeconfigEnv === ''
    ? [resolve(homedir(), '.kube', 'config')]
    : kubeconfigEnv.split(delimiter).filter((path) => path !== '');
}

/**
 * Reads and validates the whole configuration. `env` is usually `process.env`; tests pass their own.
 * Throws {@link ConfigError} listing every bad key.
 */
export function loadConfig(
  env: Record<string, string | undefined>,
  role: ConfigRole,
  readFile: (path: string) => string = (path) => readFileSync(path, 'utf8'),
): AppConfig {
  // Empty strings in env files mean "unset", not "invalid".
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));
  const parsedEnv = envSchema.safeParse(cleaned);
  const problems = parsedEnv.success
    ? envProblems(parsedEnv.data, role)
    : describeIssues('', parsedEnv.error.issues).map((p) => p.slice(1));

  // Read the clusters file even when the environment is bad, so one start lists every problem.
  const fileSetting = parsedEnv.success
    ? parsedEnv.data.CLUSTERS_FILE
    : (cleaned.CLUSTERS_FILE ?? 'clusters.yaml');
  const clustersFile = isAbsolute(fileSetting) ? fileSetting : resolve(fileSetting);
  let clusters: ClusterConfig[] = [];
  let text: string | undefined;
  try {
    text = readFile(clustersFile);
  } catch (error) {
    problems.push(
      `CLUSTERS_FILE: cannot read ${clustersFile} (${(error as NodeJS.ErrnoException).code ?? String(error)}); point CLUSTERS_FILE at your clusters YAML (see README “Configuration”)`,
    );
  }
  if (text !== undefined) {
    try {
      clusters = parseClustersFile(text, clustersFile);
    } catch (error) {
      if (error instanceof ConfigError) problems.push(...error.problems);
      else throw error;
    }
  }
  if (problems.length > 0 || !parsedEnv.success) throw new ConfigError(problems);
  const e = parsedEnv.data;

  return {
    ...(e.SLACK_BOT_TOKEN === undefined
      ? {}
      : {
          slack: {
            botToken: e.SLACK_BOT_TOKEN,
            ...(e.SLACK_SIGNING_SECRET === undefined
              ? {}
              : { signingSecret: e.SLACK_SIGNING_SECRET }),
            ...(e.SLACK_APP_TOKEN === undefined ? {} : { appToken: e.SLACK_APP_TOKEN }),
            ...(e.SLACK_API_URL === undefined ? {} : { apiUrl: e.SLACK_API_URL }),
            ...(e.SLACK_APP_ID === undefined ? {} : { appId: e.SLACK_APP_ID }),
          },
        }),
    redisUrl: e.REDIS_URL,
    port: e.PORT,
    clustersFile,
    logLevel: e.LOG_LEVEL,
    queuePrefix: e.QUEUE_PREFIX,
    workerConcurrency: e.WORKER_CONCURRENCY,
    shutdownGraceMs: e.SHUTDOWN_GRACE_SECONDS * 1000,
    auditRetentionMs: e.AUDIT_RETENTION_DAYS * 86_400_000,
    defaultKubeconfigs: defaultKubeconfigs(e.KUBECONFIG),
    clusters,
  };
}
