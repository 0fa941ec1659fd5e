// ClusterIP and NodePort allocation, like the apiserver's service allocators: sequential from the
// default service CIDR (10.96.0.0/12) and NodePort range (30000-32767), skipping what is taken.

const cidrBase = (10 << 24) | (96 << 16);
const cidrSize = 1 << 20;
const nodePortMin = 30000;
const nodePortMax = 32767;

function ipToInt(ip: string): number | undefined {
  const parts = ip.split('.').map(Number);
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255))
    return undefined;
  return (
    (((parts[0] ?? 0) << 24) |
      ((parts[1] ?? 0) << 16) |
      ((parts[2] ?? 0) << 8) |
      (parts[3] ?? 0)) >>>
    0
  );
}

function intToIp(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

export class ServiceAllocator {
  private readonly ips = new Set<number>();
  private readonly ports = new Set<number>();
  // .1 is the kubernetes service and .10 is kube-dns on kubeadm clusters: start above both.
  private nextIp = 11;
  private nextPort = nodePortMin;

  reserveIp(ip: unknown): void {
    const n = typeof ip === 'string' ? ipToInt(ip) : undefined;
    if (n !== undefined) this.ips.add(n);
  }

  reserveNodePort(port: unknown): void {
    if (typeof port === 'number') this.ports.add(port);
  }

  release(ip: unknown, ports: readonly unknown[]): void {
    const n = typeof ip === 'string' ? ipToInt(ip) : undefined;
    if (n !== undefined) this.ips.delete(n);
    for (const p of ports) if (typeof p === 'number') this.ports.delete(p);
  }

  allocateIp(): string {
    for (let tries = 0; tries < cidrSize; tries += 1) {
      const candidate = (cidrBase + this.nextIp) >>> 0;
      this.nextIp = this.nextIp + 1 >= cidrSize - 1 ? 1 : this.nextIp + 1;
      if (!this.ips.has(candidate)) {
        this.ips.add(candidate);
        return intToIp(candidate);
      }
    }
    throw new Error('twin: service CIDR exhausted');
  }

  allocateNodePort(): number {
    for (let tries = 0; tries <= nodePortMax - nodePortMin; tries += 1) {
      const candidate = this.nextPort;
      this.nextPort = candidate >= nodePortMax ? nodePortMin : candidate + 1;
      if (!this.ports.has(candidate)) {
        this.ports.add(candidate);
        return candidate;
      }
    }
    throw new Error('twin: NodePort range exhausted');
  }
}
