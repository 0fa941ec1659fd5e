// Version arithmetic for the behaviours that change between releases: Kubernetes (kube-proxy
// image tag or cluster version), Linux kernel strings from nodeInfo/uname, and nft releases.

export interface Version {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
}

/** Parses `v1.33.4`, `v1.31.6+rke2r1`, `v1.33.4-eks-1a2b3c4` and `1.33`; suffixes are ignored. */
export function parseKubeVersion(text: string): Version | undefined {
  const m = /^v?(\d+)\.(\d+)(?:\.(\d+))?/.exec(text.trim());
  if (!m) return undefined;
  return { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3] ?? 0) };
}

/** True when `v` is at least 1.`minor` (all Kubernetes releases here are 1.x). */
export function atLeast(v: Version, minor: number): boolean {
  return v.major > 1 || (v.major === 1 && v.minor >= minor);
}

export function formatVersion(v: Version): string {
  return `v${v.major}.${v.minor}.${v.patch}`;
}

/** Kernel strings carry suffixes (`-122-generic`, `.amzn2023.x86_64`, `+`): only the leading numbers count. */
export function parseKernel(text: string): Version | undefined {
  const m = /^(\d+)\.(\d+)(?:\.(\d+))?/.exec(text.trim());
  if (!m) return undefined;
  return { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3] ?? 0) };
}

export function compareVersions(a: Version, b: Version): number {
  return a.major - b.major || a.minor - b.minor || a.patch - b.patch;
}

export function kernelAtLeast(kernel: string, major: number, minor: number): boolean {
  const v = parseKernel(kernel);
  return v !== undefined && compareVersions(v, { major, minor, patch: 0 }) >= 0;
}

/** nftables release names, as `nft --version` prints them (from nftables' configure.ac). */
const nftReleaseNames: Record<string, string> = {
  '0.9.0': 'Fearless Fosdick',
  '0.9.1': 'Headless Horseman',
  '0.9.2': 'Scram',
  '0.9.3': 'Topsy',
  '0.9.4': 'Jive at Five',
  '0.9.5': 'Capital Idea',
  '0.9.6': 'Capital Idea #2',
  '0.9.7': 'Anyface',
  '0.9.8': 'E.D.S.',
  '0.9.9': 'Prudence Pimpleton',
  '1.0.0': 'Fearless Fosdick #2',
  '1.0.1': 'Fearless Fosdick #3',
  '1.0.2': 'Lester Gooch',
  '1.0.3': 'Lester Gooch #2',
  '1.0.4': 'Lester Gooch #3',
  '1.0.5': 'Lester Gooch #4',
  '1.0.6': 'Lester Gooch #5',
  '1.0.7': 'Old Doc Yak',
  '1.0.8': 'Old Doc Yak #2',
  '1.0.9': 'Old Doc Yak #3',
  '1.1.0': 'Commodore Bullmoose',
  '1.1.1': 'Commodore Bullmoose #2',
  '1.1.2': 'Commodore Bullmoose #3',
  '1.1.3': 'Commodore Bullmoose #4',
  '1.1.4': 'Commodore Bullmoose #5',
  '1.1.5': 'Commodore Bullmoose #6',
};

export function nftReleaseName(version: string): string {
  return nftReleaseNames[version] ?? 'Commodore Bullmoose';
}

/** The exact first line of `nft --version`, e.g. `nftables v1.0.6 (Lester Gooch #5)`. */
export function nftVersionLine(version: string): string {
  return `nftables v${version} (${nftReleaseName(version)})`;
}

/** knftables' rule: any `v0.*` and `v1.0.0` are too old; v1.0.1 and later are accepted. */
export function nftTooOld(version: string): boolean {
  const v = parseKernel(version);
  if (!v) return true;
  return v.major === 0 || (v.major === 1 && v.minor === 0 && v.patch === 0);
}
