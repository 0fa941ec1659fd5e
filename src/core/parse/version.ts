/**
 * Version strings as clusters report them. Kernels: `5.15.0-122-generic`,
 * `6.1.134-150.224.amzn2023.x86_64`, `6.6.137+`, `4.18.0-553.el8_10.x86_64`. Kubernetes:
 * `v1.33.4`, `v1.29.15-eks-473151a`, `v1.31.6+rke2r1`. Only the leading major.minor[.patch]
 * matters; suffixes are distribution noise.
 */

export interface Version {
  major: number;
  minor: number;
  patch: number;
  /** The string as reported, trimmed. */
  raw: string;
}

export function parseVersion(raw: string): Version | undefined {
  const match = /^\s*v?(\d+)\.(\d+)(?:\.(\d+))?/.exec(raw);
  if (!match) return undefined;
  return {
    major: Number(match[1]),
    minor: Number(match[2]),
    patch: match[3] === undefined ? 0 : Number(match[3]),
    raw: raw.trim(),
  };
}

type Comparable = Pick<Version, 'major' | 'minor' | 'patch'>;

/** Negative when a < b, zero when equal, positive when a > b. */
export function compareVersions(a: Comparable, b: Comparable): number {
  return a.major - b.major || a.minor - b.minor || a.patch - b.patch;
}

/** `major.minor`, the granularity people talk about ("kernel 5.15", "Kubernetes 1.33"). */
export function majorMinor(version: Comparable): string {
  return `${version.major}.${version.minor}`;
}
