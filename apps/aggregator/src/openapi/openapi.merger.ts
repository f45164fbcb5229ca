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
 * are proxied); v2 is one document merged from every backend's, served as JSON or gnostic protobuf.
 */
export class OpenApiMerger {
  private index: Record<string, { serverRelativeURL: string }> = {};
  private owners = new Map<string, string>();
  private v2?: LazyV2;

  constructor(
    private readonly agents: BackendAgents,
    private readonly local: () => OpenApiDocuments,
  ) {}

  async refresh(targets: ReadonlyMap<string, BackendTarget>): Promise<void> {
    const index: Record<string, { serverRelativeURL: string }> = { ...this.local().v3Index().paths };
    const owners = new Map<string, string>();
    for (const key of Object.keys(index)) owners.set(key, 'aggregator');
    const localV2 = JSON.parse(this.local().v2Json().body.toString()) as SwaggerLike;
    const merged: SwaggerLike = { ...localV2, paths: { ...(localV2.paths ?? {}) }, definitions: { ...(localV2.definitions ?? {}) } };
    await Promise.all(
      [...targets].map(async ([name, target]) => {
        const [v3, v2] = await Promise.all([
          backendGet(target, this.agents, '/openapi/v3', 'application/json').catch(() => undefined),
          backendGet(target, this.agents, '/openapi/v2', 'application/json').catch(() => undefined),
        ]);
        if (v3?.status === 200) {
          const paths = (JSON.parse(v3.body.toString()) as { paths?: Record<string, { serverRelativeURL: string }> }).paths ?? {};
          for (const [key, entry] of Object.entries(paths)) {
            if (owners.has(key)) continue;
            owners.set(key, name);
            index[key] = entry;
          }
        }
        if (v2?.status === 200) {
          const doc = JSON.parse(v2.body.toString()) as SwaggerLike;
          merged.paths = { ...(doc.paths ?? {}), ...merged.paths };
          merged.definitions = { ...(doc.definitions ?? {}), ...merged.definitions };
        }
      }),
    );
    this.index = index;
    this.owners = owners;
    this.v2 = new LazyV2(merged);
  }

  v3Index(): { paths: Record<string, { serverRelativeURL: string }> } {
    return { paths: this.index };
  }

  /** The backend ("aggregator" for our own group) that serves /openapi/v3/<key>. */
  ownerOf(key: string): string | undefined {
    return this.owners.get(key);
  }

  v2Json(): ServedOpenApi | undefined {
    return this.v2?.jsonServed();
  }

  v2Protobuf(): ServedOpenApi | undefined {
    return this.v2?.protobufServed();
  }
}
