import { describe, expect, it } from 'vitest';
import { isStatusError } from '@kube/apimachinery';
import { negotiate, PARTIAL_METADATA_LIST_V1, TABLE_V1 } from './negotiation';

describe('negotiate', () => {
  it('picks the Table kubectl asks for when the endpoint can produce it', () => {
    const accept = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';
    expect(negotiate(accept, [TABLE_V1])).toEqual({ format: 'json', as: TABLE_V1 });
    expect(negotiate(accept, [])).toEqual({ format: 'json' });
  });

  it('answers protobuf where the kind has a protobuf message, skips it where not, and honours yaml', () => {
    const clientGo = 'application/vnd.kubernetes.protobuf, application/json';
    expect(negotiate(clientGo, [], () => true)).toEqual({ format: 'protobuf' });
    expect(negotiate(clientGo, [], () => false)).toEqual({ format: 'json' });
    expect(negotiate(clientGo)).toEqual({ format: 'json' });
    expect(negotiate('application/yaml')).toEqual({ format: 'yaml' });
    expect(negotiate('*/*')).toEqual({ format: 'json' });
  });

  it('asks whether protobuf is served only of a client that names it', () => {
    let asked = 0;
    const served = (): boolean => (asked++, true);
    negotiate('application/json', [], served);
    negotiate('application/json;as=Table;v=v1;g=meta.k8s.io,application/json', [TABLE_V1], served);
    expect(asked).toBe(0);
  });

  it('serves a Table in JSON only and PartialObjectMetadata in protobuf for any resource, as kube does', () => {
    expect(negotiate('application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io,application/json', [TABLE_V1], () => true)).toEqual({ format: 'json' });
    const metadata = 'application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json';
    expect(negotiate(metadata, [PARTIAL_METADATA_LIST_V1], () => false)).toEqual({ format: 'protobuf', as: PARTIAL_METADATA_LIST_V1 });
  });

  it('answers 406 when nothing acceptable remains, listing protobuf where it is served', () => {
    const status = (fn: () => unknown): { code: number; message: string } => {
      try {
        fn();
      } catch (err) {
        if (isStatusError(err)) return { code: err.code, message: err.status.message ?? '' };
      }
      throw new Error('no 406');
    };
    expect(status(() => negotiate('application/vnd.kubernetes.protobuf'))).toEqual({ code: 406, message: 'only the following media types are accepted: application/json, application/yaml, application/json;stream=watch' });
    expect(status(() => negotiate('text/html', [], () => true))).toEqual({ code: 406, message: 'only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf' });
  });
});
