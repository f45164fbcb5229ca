import type { OpenApiDocuments } from '@kube/apiserver';
import { describe, expect, it } from 'vitest';
import type { BackendAgents } from '../proxy/backend.target';
import { OpenApiMerger } from './openapi.merger';

const localDocs = (paths: Record<string, unknown>): OpenApiDocuments =>
  ({
    v3Index: () => ({ paths: {} }),
    v2Json: () => ({ body: Buffer.from(JSON.stringify({ swagger: '2.0', info: { title: 'Kubernetes', version: 'v1' }, paths, definitions: {} })) }),
  }) as unknown as OpenApiDocuments;

describe('OpenApiMerger', () => {
  it('serves nothing before the first refresh, then the merged v2 encoded once per refresh, not once per request', async () => {
    let paths: Record<string, unknown> = { '/api/': {} };
    const merger = new OpenApiMerger({} as BackendAgents, () => localDocs(paths));
    expect(merger.v2Json()).toBeUndefined();
    expect(merger.v2Protobuf()).toBeUndefined();

    await merger.refresh(new Map());
    const json = merger.v2Json();
    expect(JSON.parse(json?.body.toString() ?? '{}').paths).toEqual({ '/api/': {} });
    expect(merger.v2Json()).toBe(json);
    const protobuf = merger.v2Protobuf();
    expect(protobuf?.body.length).toBeGreaterThan(0);
    expect(protobuf?.etag).not.toBe(json?.etag);
    expect(merger.v2Protobuf()).toBe(protobuf);

    paths = { '/api/': {}, '/apis/': {} };
    await merger.refresh(new Map());
    expect(Object.keys(JSON.parse(merger.v2Json()?.body.toString() ?? '{}').paths)).toEqual(['/api/', '/apis/']);
    expect(merger.v2Protobuf()?.etag).not.toBe(protobuf?.etag);
  });
});
