import { randomInt } from 'node:crypto';
import { Errors, FieldError, type KubeObject } from '@kube/apimachinery';
import type { EtcdClient } from '@kube/storage';
import type { UndoFn } from '@kube/apiserver';
import { IPv4Range } from './ip-range';

interface ServicePort {
  name?: string;
  port?: number;
  nodePort?: number;
}

interface ServiceSpec {
  type?: string;
  clusterIP?: string;
  clusterIPs?: string[];
  ports?: ServicePort[];
}

export interface PortRange {
  base: number;
  size: number;
}

const SERVICES_GK = { group: '', kind: 'Service' };
const IP_PREFIX = '/registry/allocations/serviceips/';
const PORT_PREFIX = '/registry/allocations/servicenodeports/';
const RANDOM_ATTEMPTS = 64;

function specOf(obj: KubeObject): ServiceSpec {
  return (obj.spec ?? {}) as ServiceSpec;
}

function needsClusterIP(spec: ServiceSpec): boolean {
  return spec.type !== 'ExternalName' && spec.clusterIP !== 'None';
}

function needsNodePorts(spec: ServiceSpec): boolean {
  return spec.type === 'NodePort' || spec.type === 'LoadBalancer';
}

/** Repair passes a key must stay unowned before it is released (kube's numRepairsBeforeLeakCleanup). */
export const LEAK_PASSES = 3;

/**
 * ClusterIP and NodePort allocation. Each allocated IP or port is one etcd key created with a create-only
 * transaction (like kube's IPAddress objects), so replicas never hand out the same one; a repair pass
 * rebuilds the keys from the stored Services and frees leaked ones.
 */
export class ServiceAllocator {
  readonly ipRange: IPv4Range;
  /** Keys no Service held, with the number of repair passes in a row that found them so. */
  private readonly leaks = new Map<string, number>();

  constructor(
    private readonly etcd: EtcdClient,
    cidr: string,
    readonly portRange: PortRange,
  ) {
    this.ipRange = new IPv4Range(cidr);
  }

  /** Allocates what a new Service needs, in place; returns an undo that frees it. */
  async allocate(svc: KubeObject, old?: KubeObject): Promise<UndoFn> {
    const spec = specOf(svc);
    const taken: string[] = [];
    const undo: UndoFn = async () => {
      await Promise.all(taken.map((k) => this.release(k)));
    };
    try {
      await this.allocateClusterIP(svc, spec, old, taken);
      await this.allocateNodePorts(svc, spec, old, taken);
    } catch (err) {
      await undo();
      throw err;
    }
    return undo;
  }

  /** Frees what a deleted Service (or what an update stopped using) held. */
  async releaseFor(svc: KubeObject, keep?: KubeObject): Promise<void> {
    const keys = new Set(this.keysOf(svc));
    if (keep) for (const k of this.keysOf(keep)) keys.delete(k);
    await Promise.all([...keys].map((k) => this.release(k)));
  }

  keysOf(svc: KubeObject): string[] {
    const spec = specOf(svc);
    const keys: string[] = [];
    if (spec.clusterIP && spec.clusterIP !== 'None' && this.ipRange.contains(spec.clusterIP)) keys.push(IP_PREFIX + spec.clusterIP);
    for (const p of spec.ports ?? []) if (p.nodePort) keys.push(PORT_PREFIX + p.nodePort);
    return keys;
  }

  /**
   * Makes the allocation keys match the stored Services, as kube's repair controllers do: the keys are read
   * before the Services (a create that claims its key later is not seen as a leak at all), and a key no Service
   * holds is released only after it stayed so for LEAK_PASSES passes in a row, because a create whose key was
   * claimed just before the read may not have stored its Service yet.
   */
  async repair(listServices: () => Promise<KubeObject[]>): Promise<{ restored: number; released: number }> {
    const existing = new Set<string>();
    for (const prefix of [IP_PREFIX, PORT_PREFIX]) {
      const res = await this.etcd.rangePrefix(prefix, {}, 'allocations');
      for (const kv of res.kvs) existing.add(kv.key.toString());
    }
    const wanted = new Map<string, string>();
    for (const svc of await listServices()) for (const k of this.keysOf(svc)) wanted.set(k, `${svc.metadata.namespace}/${svc.metadata.name}`);
    let restored = 0;
    let released = 0;
    for (const [k, owner] of wanted) if (!existing.has(k) && (await this.claim(k, owner))) restored++;
    for (const k of this.leaks.keys()) if (!existing.has(k) || wanted.has(k)) this.leaks.delete(k);
    for (const k of existing) {
      if (wanted.has(k)) continue;
      const passes = (this.leaks.get(k) ?? 0) + 1;
      if (passes < LEAK_PASSES) {
        this.leaks.set(k, passes);
        continue;
      }
      this.leaks.delete(k);
      await this.release(k);
      released++;
    }
    return { restored, released };
  }

  private async allocateClusterIP(svc: KubeObject, spec: ServiceSpec, old: KubeObject | undefined, taken: string[]): Promise<void> {
    if (!needsClusterIP(spec)) return;
    const previous = old ? specOf(old).clusterIP : undefined;
    if (previous && previous !== 'None') {
      spec.clusterIP = previous;
      spec.clusterIPs = [previous];
      return;
    }
    const owner = `${svc.metadata.namespace}/${svc.metadata.name}`;
    if (spec.clusterIP) {
      if (!this.ipRange.contains(spec.clusterIP)) {
        throw this.invalid(svc, 'spec.clusterIPs[0]', spec.clusterIP, `failed to allocate IP ${spec.clusterIP}: provided IP is not in the valid range. The range of valid IPs is ${this.ipRange.cidr}`);
      }
      if (!(await this.claim(IP_PREFIX + spec.clusterIP, owner))) {
        throw this.invalid(svc, 'spec.clusterIPs[0]', spec.clusterIP, `failed to allocate IP ${spec.clusterIP}: provided IP is already allocated`);
      }
      taken.push(IP_PREFIX + spec.clusterIP);
    } else {
      // Offset 0 is the `kubernetes` service's address; it is only handed out when asked for explicitly.
      const ip = await this.claimRandom(() => this.ipRange.at(1 + randomInt(this.ipRange.last - this.ipRange.first)), (ip) => IP_PREFIX + ip, owner);
      if (!ip) throw Errors.internal(new Error(`range is full: no IPs left in ${this.ipRange.cidr}`));
      spec.clusterIP = ip;
      taken.push(IP_PREFIX + ip);
    }
    spec.clusterIPs = [spec.clusterIP];
  }

  private async allocateNodePorts(svc: KubeObject, spec: ServiceSpec, old: KubeObject | undefined, taken: string[]): Promise<void> {
    if (!needsNodePorts(spec)) {
      for (const p of spec.ports ?? []) delete p.nodePort;
      return;
    }
    const owner = `${svc.metadata.namespace}/${svc.metadata.name}`;
    const held = new Set((old ? (specOf(old).ports ?? []) : []).map((p) => p.nodePort).filter((n): n is number => !!n));
    const ports = spec.ports ?? [];
    for (let i = 0; i < ports.length; i++) {
      const p = ports[i];
      if (p.nodePort && held.has(p.nodePort)) continue;
      if (p.nodePort) {
        if (p.nodePort < this.portRange.base || p.nodePort >= this.portRange.base + this.portRange.size) {
          throw this.invalid(svc, `spec.ports[${i}].nodePort`, p.nodePort, `provided port is not in the valid range. The range of valid ports is ${this.portRange.base}-${this.portRange.base + this.portRange.size - 1}`);
        }
        if (!(await this.claim(PORT_PREFIX + p.nodePort, owner))) throw this.invalid(svc, `spec.ports[${i}].nodePort`, p.nodePort, 'provided port is already allocated');
        taken.push(PORT_PREFIX + p.nodePort);
        continue;
      }
      const port = await this.claimRandom(() => this.portRange.base + randomInt(this.portRange.size), (n) => PORT_PREFIX + n, owner);
      if (!port) throw Errors.internal(new Error('range is full: no node ports left'));
      p.nodePort = port;
      taken.push(PORT_PREFIX + port);
    }
  }

  private async claimRandom<T>(pick: () => T, key: (v: T) => string, owner: string): Promise<T | undefined> {
    for (let i = 0; i < RANDOM_ATTEMPTS; i++) {
      const v = pick();
      if (await this.claim(key(v), owner)) return v;
    }
    return undefined;
  }

  private async claim(key: string, owner: string): Promise<boolean> {
    const res = await this.etcd.txn(
      { compare: [{ key: Buffer.from(key), target: 'Create', result: 'Equal', create_revision: 0 }], success: [{ request_put: { key: Buffer.from(key), value: Buffer.from(owner) } }], failure: [] },
      'allocations',
      'create',
    );
    return res.succeeded;
  }

  private async release(key: string): Promise<void> {
    await this.etcd.txn({ compare: [], success: [{ request_delete_range: { key: Buffer.from(key) } }], failure: [] }, 'allocations', 'delete');
  }

  private invalid(svc: KubeObject, field: string, value: unknown, detail: string): Error {
    return Errors.invalid(SERVICES_GK, svc.metadata.name ?? '', [FieldError.invalid(field, value, detail)]);
  }
}
