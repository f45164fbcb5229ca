/** An IPv4 CIDR as a numeric range; allocations skip the network and broadcast addresses. */
export class IPv4Range {
  readonly base: number;
  readonly size: number;

  constructor(readonly cidr: string) {
    const m = /^(\d+\.\d+\.\d+\.\d+)\/(\d+)$/.exec(cidr);
    if (!m) throw new Error(`invalid IPv4 CIDR ${cidr}`);
    const bits = Number(m[2]);
    if (bits < 8 || bits > 30) throw new Error(`CIDR ${cidr}: prefix must be between /8 and /30`);
    const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
    this.base = (ipToNumber(m[1]) & mask) >>> 0;
    this.size = 2 ** (32 - bits);
  }

  /** Usable addresses: base+1 … base+size-2. */
  get first(): number {
    return this.base + 1;
  }

  get last(): number {
    return this.base + this.size - 2;
  }

  contains(ip: string): boolean {
    const n = ipToNumber(ip);
    return n >= this.first && n <= this.last;
  }

  /** The n-th usable address (0 = the first, kube reserves it for the `kubernetes` service). */
  at(offset: number): string {
    return numberToIp(this.first + offset);
  }
}

export function isIPv4(ip: string): boolean {
  const parts = ip.split('.');
  return parts.length === 4 && parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255 && (p === '0' || !p.startsWith('0')));
}

export function ipToNumber(ip: string): number {
  if (!isIPv4(ip)) throw new Error(`invalid IPv4 address ${ip}`);
  return ip.split('.').reduce((acc, p) => ((acc << 8) | Number(p)) >>> 0, 0);
}

export function numberToIp(n: number): string {
  return [24, 16, 8, 0].map((s) => (n >>> s) & 255).join('.');
}
