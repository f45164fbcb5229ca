import { describe, expect, it } from 'vitest';
import { isStatusError } from '@kube/apimachinery';
import { negotiate, TABLE_V1 } from './negotiation';

describe('negotiate', () => {
  it('picks the Table kubectl asks for when the endpoint can produce it', () => {
    const accept = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';
    expect(negotiate(accept, [TABLE_V1])).toEqual({ format: 'json', as: TABLE_V1 });
    expect(negotiate(accept, [])).toEqual({ format: 'json' });
  });

  it('skips protobuf and honours yaml', () => {
    expect(negotiate('application/vnd.kubernetes.protobuf, application/json')).toEqual({ format: 'json' });
    expect(negotiate('application/yaml')).toEqual({ format: 'yaml' });
    expect(negotiate('*/*')).toEqual({ format: 'json' });
  });

  it('answers 406 when nothing acceptable remains', () => {
    try {
      negotiate('application/vnd.kubernetes.protobuf');
      expect.unreachable();
    } catch (err) {
      expect(isStatusError(err) && err.code).toBe(406);
    }
  });
});
