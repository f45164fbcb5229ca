import { createHash } from 'node:crypto';
import { encodeOpenApiV2Protobuf, type OpenApiDocuments } from '@kube/apiserver';
import { backendGet } from '../proxy/backend.get';
import type { BackendAgents, BackendTarget } from '../proxy/backend.target';

export interface ServedOpenApi {
  body: Buffer;
  etag: string;
}

interface SwaggerLike {
  swagger?: string;
  info?: unknown;
  paths?: Record<string, unknown>;
  definitions?: Record<string, unknown>;
  [k: string]: unknown;
}

function served(body: Buffer): ServedOpenApi {
  return { body, etag: `"${createHash('sha512').update(body).digest('hex').toUpperCase()}"` };
}

/**
 * The merged v2 document, encoded when first asked for (as kube's lazy OpenAPI service does): CRD churn
 * refreshes it many times a second, and encoding it (protobuf above all: about 15 ms of the aggregator's CPU per
 * refresh, measured while 20 CRDs were created) on every refresh took the CPU the new CRD's first request needed.
 */
class LazyV2 {
  private json?: ServedOpenApi;
  private protobuf?: ServedOpenApi;

  constructor(private readonly merged: SwaggerLike) {}

  jsonServed(): ServedOpenApi {
    return (this.json ??= served(Buffer.from(JSON.stringify(this.merged))));
  }

  protobufServed(): ServedOpenApi {
    return (this.protobuf ??= served(encodeOpenApiV2Protobuf(this.merged as unknown as Parameters<typeof encodeOpenApiV2Protobuf>[0])));
  }
}

/**
 * Merged OpenAPI: v3 is an index whose entries point at the backend that owns each group/version (documents
 * are proxied), refreshed with the backends; v2 is one document merged from every backend's, served as JSON or
 * gnostic protobuf, and fetched and merged only when a client asks for it after a change (kube's aggregator
 * merges v2 lazily too). A backend's v2 document grows with every CRD (megabytes with 1,000 of them): fetching
 * it on every change of a CRD burst took most of extensions' CPU.
 */
export class OpenApiMerger {
  private index: Record<string, { serverRelativeURL: string }> = {};
  private owners = new Map<string, string>();
  /** The backends of the latest refresh; undefined before the first. */
  private targets?: ReadonlyMap<string, BackendTarget>;
  private generation = 0;
  private v2?: { generation: number; merged: Promise<LazyV2> };

  constructor(
    private readonly agents: BackendAgents,
    private readonly local: () => OpenApiDocuments,
  ) {}

  async refresh(targets: ReadonlyMap<string, BackendTarget>): Promise<void> {
    const index: Record<string, { serverRelativeURL: string }> = { ...this.local().v3Index().paths };
    const owners = new Map<string, string>();
    for (const key of Object.keys(index)) owners.set(key, 'aggregator');
    await Promise.all(
      [...targets].map(async ([name, target]) => {
        const v3 = await backendGet(target, this.agents, '/openapi/v3', 'application/json').catch(() => undefined);
        if (v3?.status !== 200) return;
        const paths = (JSON.parse(v3.body.toString()) as { paths?: Record<string, { serverRelativeURL: string }> }).paths ?? {};
        for (const [key, entry] of Object.entries(paths)) {
          if (owners.has(key)) continue;
          owners.set(key, name);
          index[key] = entry;
        }
      }),
    );
    this.index = index;
    this.owners = owners;
    this.targets = targets;
    this.generation++;
  }

  v3Index(): { paths: Record<string, { serverRelativeURL: string }> } {
    return { paths: this.index };
  }

  /** The backend ("aggregator" for our own group) that serves /openapi/v3/<key>. */
  ownerOf(key: string): string | undefined {
    return this.owners.get(key);
  }

  /** The merged v2 as of the latest refresh (fetched now if that refresh's is not yet); undefined before the first. */
  async v2Json(): Promise<ServedOpenApi | undefined> {
    return (await this.mergedV2())?.jsonServed();
  }

  async v2Protobuf(): Promise<ServedOpenApi | undefined> {
    return (await this.mergedV2())?.protobufServed();
  }

  private mergedV2(): Promise<LazyV2> | undefined {
    const targets = this.targets;
    if (!targets) return undefined;
    if (this.v2?.generation !== this.generation) {
      const generation = this.generation;
      const merged = this.mergeV2(targets);
      this.v2 = { generation, merged };
      // A failed merge is retried by the next request.
      merged.catch(() => {
        if (this.v2?.merged === merged) this.v2 = undefined;
      });
    }
    return this.v2?.merged;
  }

  private async mergeV2(targets: ReadonlyMap<string, BackendTarget>): Promise<LazyV2> {
    const localV2 = JSON.parse(this.local().v2Json().body.toString()) as SwaggerLike;
    const merged: SwaggerLike = { ...localV2, paths: { ...(localV2.paths ?? {}) }, definitions: { ...(localV2.definitions ?? {}) } };
    await Promise.all(
      [...targets.values()].map(async (target) => {
        const v2 = await backendGet(target, this.agents, '/openapi/v2', 'application/json').catch(() => undefined);
        if (v2?.status !== 200) return;
        const doc = JSON.parse(v2.body.toString()) as SwaggerLike;
        merged.paths = { ...(doc.paths ?? {}), ...merged.paths };
        merged.definitions = { ...(doc.definitions ?? {}), ...merged.definitions };
      }),
    );
    return new LazyV2(merged);
  }
}
