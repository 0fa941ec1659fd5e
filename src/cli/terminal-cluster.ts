/**
 * Which cluster a terminal command works on: a name from the clusters file, or (with
 * --kubeconfig/--context) straight from a kubeconfig, where <cluster> is just the name shown and
 * may be left out (then it is the context's name: --context, else the kubeconfig's current one).
 * The kubeconfig is loaded here, before any work: a missing or unreadable file, or a context it
 * lacks, is a configuration problem like the clusters file's (exit 78); an unknown cluster is a
 * usage error (64).
 */
import {
  clusterConfig,
  ConfigError,
  defaultKubeconfigs,
  loadConfig,
  logLevels,
  runStoreSettings,
  type AppConfig,
  type ClusterConfig,
} from '../config.js';
import { kubeConfigFor } from '../adapters/kubernetes/kubeconfig.js';
import { resolveCluster } from '../core/cluster-access.js';
import { isAppError, toUserMessage } from '../errors.js';
import { createLogger, type Logger } from '../log.js';
import { EXIT, type CliIo } from './types.js';

export interface ClusterArgs {
  /** Undefined with --kubeconfig/--context: named after the context. */
  cluster: string | undefined;
  kubeconfig?: string;
  context?: string;
  /** The usage line for errors: `proxy-migrate preflight <cluster>`. */
  usage: string;
  /** The command keeps run state (Redis or files): check REDIS_URL and the rest up front. */
  durable?: boolean;
}

export type RunStoreSettings = ReturnType<typeof runStoreSettings>;

export type Resolved =
  | {
      ok: true;
      cluster: ClusterConfig;
      config: AppConfig | undefined;
      kubeconfigs: string[];
      /** Where run state goes; undefined when the command keeps it in memory. */
      runStore: RunStoreSettings | undefined;
    }
  | { ok: false; code: number };

/** A terminal command's log: warnings and worse on stderr unless LOG_LEVEL says otherwise. */
export function terminalLogger(io: CliIo): Logger {
  return createLogger({
    level: logLevels.find((l) => l === io.env.LOG_LEVEL) ?? 'warn',
    destination: process.stderr,
  });
}

/**
 * A cluster name (lower-case letters, digits and dashes, at most 40) from a context name: an EKS
 * ARN gives its cluster's name; otherwise (a GKE `gke_project_zone_name`, …) anything else becomes
 * a dash, and a long one keeps its end (the most specific part).
 */
export function clusterNameOf(context: string): string {
  const eks = /^arn:[^:]+:eks:[^:]*:[^:]*:cluster\/(.+)$/.exec(context)?.[1];
  const slug = (eks ?? context)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  const name = slug.length > 40 ? slug.slice(-40).replace(/^-+/, '') : slug;
  return name === '' ? 'kubeconfig' : name;
}

export function resolveTerminalCluster(io: CliIo, args: ClusterArgs): Resolved {
  const kubeconfigs = defaultKubeconfigs(io.env.KUBECONFIG);
  try {
    const adHoc = args.kubeconfig !== undefined || args.context !== undefined;
    const config = adHoc ? undefined : loadConfig(io.env, 'cli');
    const flags = {
      ...(args.kubeconfig === undefined ? {} : { kubeconfig: args.kubeconfig }),
      ...(args.context === undefined ? {} : { context: args.context }),
    };
    let cluster: ClusterConfig;
    if (config === undefined) {
      const provisional = clusterConfig({
        name: args.cluster ?? clusterNameOf(args.context ?? ''),
        ...flags,
      });
      const loaded = kubeConfigFor(provisional, kubeconfigs);
      const name = args.cluster ?? clusterNameOf(loaded.getCurrentContext());
      cluster = clusterConfig({ name, ...flags });
    } else {
      cluster = resolveCluster(config.clusters, args.cluster, undefined, args.usage);
      kubeConfigFor(cluster, kubeconfigs);
    }
    const runStore = args.durable === true ? runStoreSettings(io.env) : undefined;
    return { ok: true, cluster, config, kubeconfigs, runStore };
  } catch (error) {
    if (error instanceof ConfigError) {
      io.stderr.write(
        `${error.message}\nOr pass --kubeconfig/--context to use a cluster without a clusters file.\n`,
      );
      return { ok: false, code: EXIT.config };
    }
    if (isAppError(error) && error.code === 'KUBECONFIG_INVALID') {
      io.stderr.write(`${toUserMessage(error)}\n`);
      return { ok: false, code: EXIT.config };
    }
    if (isAppError(error)) {
      io.stderr.write(`${toUserMessage(error)}\n`);
      return { ok: false, code: EXIT.usage };
    }
    throw error;
  }
}
