import type { OpenApiDocuments } from '@kube/apiserver';
import { describe, expect, it } from 'vitest';
import type { BackendAgents } from '../proxy/backend.target';
import { OpenApiMerger } from './openapi.merger';

function localDocs(state: { paths: Record<string, unknown>; v2Reads: number }): OpenApiDocuments {
  return {
    v3Index: () => ({ paths: {} }),
    v2Json: () => {
      state.v2Reads++;
      return { body: Buffer.from(JSON.stringify({ swagger: '2.0', info: { title: 'Kubernetes', version: 'v1' }, paths: state.paths, definitions: {} })) };
    },
  } as unknown as OpenApiDocuments;
}

describe('OpenApiMerger', () => {
  it('serves nothing before the first refresh, then the merged v2, fetched on the first request after a refresh and encoded once', async () => {
    const state = { paths: { '/api/': {} } as Record<string, unknown>, v2Reads: 0 };
    const merger = new OpenApiMerger({} as BackendAgents, () => localDocs(state));
    expect(await merger.v2Json()).toBeUndefined();
    expect(await merger.v2Protobuf()).toBeUndefined();

    await merger.refresh(new Map());
    await merger.refresh(new Map());
    expect(state.v2Reads).toBe(0);
    const [json, again] = await Promise.all([merger.v2Json(), merger.v2Json()]);
    expect(state.v2Reads).toBe(1);
    expect(JSON.parse(json?.body.toString() ?? '{}').paths).toEqual({ '/api/': {} });
    expect(again).toBe(json);
    const protobuf = await merger.v2Protobuf();
    expect(protobuf?.body.length).toBeGreaterThan(0);
    expect(protobuf?.etag).not.toBe(json?.etag);
    expect(await merger.v2Protobuf()).toBe(protobuf);
    expect(state.v2Reads).toBe(1);

    state.paths = { '/api/': {}, '/apis/': {} };
    await merger.refresh(new Map());
    expect(state.v2Reads).toBe(1);
    expect(Object.keys(JSON.parse((await merger.v2Json())?.body.toString() ?? '{}').paths)).toEqual(['/api/', '/apis/']);
    expect((await merger.v2Protobuf())?.etag).not.toBe(protobuf?.etag);
    expect(state.v2Reads).toBe(2);
  });
});
