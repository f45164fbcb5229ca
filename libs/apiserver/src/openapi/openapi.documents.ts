import { createHash } from 'node:crypto';
import type { GroupVersion } from '@kube/apimachinery';
import type { ResourceDefinition } from '../resource.definition';
import type { SwaggerDocument } from './openapi-document.types';
import { buildOpenApiV2, groupVersionsOf } from './openapi-v2.builder';
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

/**
 * The OpenAPI documents of one server (every group/version it serves). Each is built on first request and
 * kept: a resource set never changes for the lifetime of an instance, so make a new one when it does.
 */
export class OpenApiDocuments {
  private readonly v3Keys: ReadonlyMap<string, GroupVersion>;
  private readonly v3Cache = new Map<string, ServedDocument>();
  private v3IndexCache?: OpenApiV3Index;
  private swaggerCache?: SwaggerDocument;
  private v2JsonCache?: ServedDocument;
  private v2ProtobufCache?: ServedDocument;

  constructor(private readonly resources: readonly ResourceDefinition[]) {
    this.v3Keys = new Map(groupVersionsOf(resources).map((gv) => [openApiV3Key(gv), gv]));
  }

  /** The body of GET /openapi/v3. */
  v3Index(): OpenApiV3Index {
    this.v3IndexCache ??= {
      paths: Object.fromEntries(
        [...this.v3Keys.keys()].map((key) => [key, { serverRelativeURL: `/openapi/v3/${key}?hash=${unquote(this.v3DocumentFor(key).etag)}` }]),
      ),
    };
    return this.v3IndexCache;
  }

  /** GET /openapi/v3/<key>, key "api/v1" or "apis/<group>/<version>"; undefined for a group/version not served here. */
  v3Document(key: string): ServedDocument | undefined {
    return this.v3Keys.has(key) ? this.v3DocumentFor(key) : undefined;
  }

  /** GET /openapi/v2 as application/json. */
  v2Json(): ServedDocument {
    this.v2JsonCache ??= served(Buffer.from(JSON.stringify(this.swagger())));
    return this.v2JsonCache;
  }

  /** GET /openapi/v2 as application/com.github.proto-openapi.spec.v2@v1.0+protobuf (kubectl 1.27/1.28). */
  v2Protobuf(): ServedDocument {
    this.v2ProtobufCache ??= served(encodeOpenApiV2Protobuf(this.swagger()));
    return this.v2ProtobufCache;
  }

  private swagger(): SwaggerDocument {
    this.swaggerCache ??= buildOpenApiV2(this.resources);
    return this.swaggerCache;
  }

  private v3DocumentFor(key: string): ServedDocument {
    let doc = this.v3Cache.get(key);
    if (!doc) {
      const gv = this.v3Keys.get(key);
      if (!gv) throw new Error(`no OpenAPI v3 document for ${key}`);
      doc = served(Buffer.from(JSON.stringify(buildOpenApiV3(gv, this.resources))));
      this.v3Cache.set(key, doc);
    }
    return doc;
  }
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
