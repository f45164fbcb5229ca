import { createHash } from 'node:crypto';
import type { GroupVersion } from '@kube/apimachinery';
import type { ResourceDefinition } from '../resource.definition';
import type { SwaggerDocument } from './openapi-document.types';
import { openApiV2Body, openApiV2Part, type OpenApiV2Part } from './openapi-v2.builder';
import { encodeOpenApiV2Protobuf } from './openapi-v2.protobuf';
import { buildOpenApiV3 } from './openapi-v3.builder';

/** A serialized document and its entity tag (a quoted, uppercase hex SHA-512 of the body, as kube computes it). */
export interface ServedDocument {
  body: Buffer;
  etag: string;
}

/** GET /openapi/v3: where each group/version's document lives; the hash changes whenever the document does. */
export interface OpenApiV3Index {
  paths: Record<string, { serverRelativeURL: string }>;
}

/** One group/version's documents, built when first needed and handed on to the next resource set if it is unchanged. */
interface GroupVersionDocuments {
  readonly gv: GroupVersion;
  readonly resources: readonly ResourceDefinition[];
  v3?: ServedDocument;
  v2?: OpenApiV2Part;
}

/**
 * The OpenAPI documents of one server (every group/version it serves). Each is built on first request and
 * kept: a resource set never changes for the lifetime of an instance, so make a new one when it does, from
 * the previous one: a group/version whose resources are the same objects keeps its documents, so a change
 * costs the changed group/versions and the v2 document's assembly, not every group/version again.
 */
export class OpenApiDocuments {
  private readonly byKey: ReadonlyMap<string, GroupVersionDocuments>;
  private v3IndexCache?: OpenApiV3Index;
  private swaggerCache?: SwaggerDocument;
  private v2JsonCache?: ServedDocument;
  private v2ProtobufCache?: ServedDocument;

  constructor(resources: readonly ResourceDefinition[], previous?: OpenApiDocuments) {
    const grouped = new Map<string, { gv: GroupVersion; resources: ResourceDefinition[] }>();
    for (const r of resources) {
      const gv = { group: r.group, version: r.version };
      const key = openApiV3Key(gv);
      const entry = grouped.get(key);
      if (entry) entry.resources.push(r);
      else grouped.set(key, { gv, resources: [r] });
    }
    const byKey = new Map<string, GroupVersionDocuments>();
    for (const [key, { gv, resources: served }] of grouped) {
      const old = previous?.byKey.get(key);
      byKey.set(key, old && sameResources(old.resources, served) ? old : { gv, resources: served });
    }
    this.byKey = byKey;
  }

  /** The body of GET /openapi/v3. */
  v3Index(): OpenApiV3Index {
    this.v3IndexCache ??= {
      paths: Object.fromEntries([...this.byKey].map(([key, docs]) => [key, { serverRelativeURL: `/openapi/v3/${key}?hash=${unquote(this.v3Of(docs).etag)}` }])),
    };
    return this.v3IndexCache;
  }

  /** GET /openapi/v3/<key>, key "api/v1" or "apis/<group>/<version>"; undefined for a group/version not served here. */
  v3Document(key: string): ServedDocument | undefined {
    const docs = this.byKey.get(key);
    return docs && this.v3Of(docs);
  }

  /** GET /openapi/v2 as application/json. */
  v2Json(): ServedDocument {
    this.v2JsonCache ??= served(openApiV2Body([...this.byKey.values()].map((docs) => (docs.v2 ??= openApiV2Part(buildOpenApiV3(docs.gv, docs.resources))))));
    return this.v2JsonCache;
  }

  /** GET /openapi/v2 as application/com.github.proto-openapi.spec.v2@v1.0+protobuf (kubectl 1.27/1.28). */
  v2Protobuf(): ServedDocument {
    this.v2ProtobufCache ??= served(encodeOpenApiV2Protobuf(this.swagger()));
    return this.v2ProtobufCache;
  }

  private swagger(): SwaggerDocument {
    this.swaggerCache ??= JSON.parse(this.v2Json().body.toString()) as SwaggerDocument;
    return this.swaggerCache;
  }

  private v3Of(docs: GroupVersionDocuments): ServedDocument {
    docs.v3 ??= served(Buffer.from(JSON.stringify(buildOpenApiV3(docs.gv, docs.resources))));
    return docs.v3;
  }
}

function sameResources(a: readonly ResourceDefinition[], b: readonly ResourceDefinition[]): boolean {
  return a.length === b.length && a.every((r, i) => r === b[i]);
}

/** The /openapi/v3 key of a group/version: "api/v1" for the core group, "apis/<group>/<version>" otherwise. */
export function openApiV3Key(gv: GroupVersion): string {
  return gv.group === '' ? `api/${gv.version}` : `apis/${gv.group}/${gv.version}`;
}

function served(body: Buffer): ServedDocument {
  return { body, etag: `"${createHash('sha512').update(body).digest('hex').toUpperCase()}"` };
}

function unquote(etag: string): string {
  return etag.slice(1, -1);
}
