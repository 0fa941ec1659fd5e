/**
 * The terminal pre-flight: resolve the cluster (clusters file or a kubeconfig), run it with the
 * real adapters, print the report, and turn its findings into the exit code.
 */
import { KubeClusterDirectory } from '../adapters/kubernetes/directory.js';
import { checkIds } from '../checks/index.js';
import {
  clusterConfig,
  ConfigError,
  defaultKubeconfigs,
  loadConfig,
  logLevels,
  type ClusterConfig,
} from '../config.js';
import { resolveCluster } from '../core/cluster-access.js';
import { newRunId } from '../engine/run-id.js';
import { runPreflight, type PreflightPhase } from '../engine/preflight-run.js';
import { isAppError, toUserMessage } from '../errors.js';
import { createLogger } from '../log.js';
import { systemClock } from '../ports/clock.js';
import { reportMarkdown } from '../views/preflight-report.js';
import { reportText } from '../views/report-text.js';
import { EXIT, type CliIo } from './types.js';

export interface TerminalPreflight {
  cluster: string;
  format: 'text' | 'md' | 'json';
  failOn: 'block' | 'warn' | 'none';
  concurrency?: number;
  probe: boolean;
  suppressed: string[];
  kubeconfig?: string;
  context?: string;
  poolLabel?: string;
  probeImage?: string;
  probeNamespace?: string;
}

function adHocCluster(args: TerminalPreflight): ClusterConfig {
  return clusterConfig({
    name: args.cluster,
    ...(args.kubeconfig === undefined ? {} : { kubeconfig: args.kubeconfig }),
    ...(args.context === undefined ? {} : { context: args.context }),
  });
}

function progressWriter(io: CliIo): (phase: PreflightPhase, done: number, total: number) => void {
  const tty = (io.stderr as NodeJS.WriteStream).isTTY === true;
  let lastShown = -1;
  return (phase, done, total) => {
    if (phase === 'listing') return;
    const line = phase === 'probing' ? `probing nodes ${done}/${total}` : 'running checks';
    if (tty) io.stderr.write(`\r${line}\u001b[K${phase === 'checking' ? '\n' : ''}`);
    else {
      // Without a terminal, one line per tenth of the way is enough for CI logs.
      const step = total === 0 ? 0 : Math.floor((done / total) * 10);
      if (phase === 'checking' || step !== lastShown) io.stderr.write(`${line}\n`);
      lastShown = step;
    }
  };
}

export async function runTerminalPreflight(io: CliIo, args: TerminalPreflight): Promise<number> {
  const unknown = args.suppressed.filter((id) => !checkIds.includes(id));
  if (unknown.length > 0) {
    io.stderr.write(
      `Unknown check id for --suppress: ${unknown.join(', ')}. Known: ${checkIds.join(', ')}\n`,
    );
    return EXIT.usage;
  }
  const logger = createLogger({
    level: logLevels.find((l) => l === io.env.LOG_LEVEL) ?? 'warn',
    destination: process.stderr,
  });
  let cluster: ClusterConfig;
  const kubeconfigs = defaultKubeconfigs(io.env.KUBECONFIG);
  try {
    const adHoc = args.kubeconfig !== undefined || args.context !== undefined;
    const config = adHoc ? undefined : loadConfig(io.env, 'cli');
    cluster =
      config === undefined
        ? adHocCluster(args)
        : resolveCluster(
            config.clusters,
            args.cluster,
            undefined,
            'proxy-migrate preflight <cluster>',
          );
  } catch (error) {
    if (error instanceof ConfigError) {
      io.stderr.write(
        `${error.message}\nOr pass --kubeconfig/--context to check a cluster without a clusters file.\n`,
      );
      return EXIT.config;
    }
    if (isAppError(error)) {
      io.stderr.write(`${toUserMessage(error)}\n`);
      return EXIT.usage;
    }
    throw error;
  }
  cluster = {
    ...cluster,
    probe: {
      ...cluster.probe,
      image: args.probeImage ?? cluster.probe.image,
      namespace: args.probeNamespace ?? cluster.probe.namespace,
    },
  };
  const poolLabel = args.poolLabel ?? cluster.poolLabel;
  const directory = new KubeClusterDirectory(
    { clusters: [cluster], defaultKubeconfigs: kubeconfigs },
    logger,
  );
  try {
    const { overview, report } = await runPreflight({
      cluster: directory.get(cluster.name),
      ...(args.probe
        ? { shell: directory.nodeShell(cluster.name, newRunId('pf', new Date())) }
        : {}),
      clock: systemClock,
      ...(poolLabel === undefined ? {} : { poolLabel }),
      suppressed: new Set(args.suppressed),
      probeConcurrency: args.concurrency ?? cluster.probe.concurrency,
      onProgress: progressWriter(io),
    });
    const out =
      args.format === 'json'
        ? `${JSON.stringify(report, null, 2)}\n`
        : args.format === 'md'
          ? reportMarkdown(report, overview)
          : reportText(report, overview, {
              colour: (io.stdout as NodeJS.WriteStream).isTTY === true,
            });
    io.stdout.write(out);
    if (args.failOn !== 'none' && report.summary.block > 0) return EXIT.blockers;
    if (args.failOn === 'warn' && report.summary.warn > 0) return EXIT.warnings;
    return EXIT.ok;
  } catch (error) {
    io.stderr.write(`${toUserMessage(error)}\n`);
    return EXIT.failure;
  }
}
