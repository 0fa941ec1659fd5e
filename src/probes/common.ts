/**
 * What every probe shares: exits that mean the tool never answered (127 not installed, 124
 * `timeout`), parser failures as ProbeErrors, and curl command lines that always carry
 * --max-time (a silent drop must not hang the probe pod's exec).
 */
import type { Parsed } from '../core/parse/parsed.js';
import { curlMessage } from '../core/parse/curl.js';
import { hostPort } from '../core/ip.js';
import { probeError, type HostPort, type ProbeError, type ProbeResult } from './types.js';

export function firstLine(text: string): string {
  return (
    text
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l !== '') ?? ''
  );
}

/** The failure every tool shares, or undefined when the tool itself answered. */
export function toolFailure(result: ProbeResult, tool: string): ProbeError | undefined {
  const said = firstLine(result.stderr) || firstLine(result.stdout);
  const detail = said === '' ? `exit ${result.exitCode}` : `exit ${result.exitCode}: ${said}`;
  if (result.exitCode === 127 || result.exitCode === 126)
    return probeError('not-installed', `${tool} is not in the probe image (${detail})`);
  if (result.exitCode === 124) return probeError('timed-out', `${tool} timed out (${detail})`);
  return undefined;
}

/** A non-zero exit the probe has no meaning for. */
export function failed(result: ProbeResult, tool: string): ProbeError {
  const said = firstLine(result.stderr) || firstLine(result.stdout);
  return probeError('failed', `${tool} exited ${result.exitCode}${said === '' ? '' : `: ${said}`}`);
}

export function fromParsed<T>(value: Parsed<T>): T | ProbeError {
  return value.ok ? value.value : probeError('unparsable', value.error);
}

export function url(at: HostPort, path: string): string {
  return `http://${hostPort(at.host, at.port)}${path}`;
}

/** `curl -s --max-time N URL`: a body from one of kube-proxy's own servers. */
export function curlBody(target: string, maxTimeSeconds: number, extra: string[] = []): string[] {
  return ['curl', '-sS', '--max-time', String(maxTimeSeconds), ...extra, target];
}

/** curl against kube-proxy's own servers: anything but exit 0 means the value is unknown. */
export function curlServerFailure(result: ProbeResult, what: string): ProbeError | undefined {
  const common = toolFailure(result, 'curl');
  if (common !== undefined || result.exitCode === 0) return common;
  const message = `${what}: ${curlMessage(result.stderr) || `curl exited ${result.exitCode}`}`;
  if (result.exitCode === 28) return probeError('timed-out', message);
  return probeError('failed', message);
}
