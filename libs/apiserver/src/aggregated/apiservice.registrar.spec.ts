import { describe, expect, it } from 'vitest';
import { endpointAddress } from './apiservice.registrar';

describe('endpointAddress', () => {
  it('publishes the bind address, or the explicit one', () => {
    expect(endpointAddress({}, '127.0.0.1')).toBe('127.0.0.1');
    expect(endpointAddress({ address: '10.0.0.12' }, '0.0.0.0')).toBe('10.0.0.12');
  });

  it('refuses to publish "every interface" as an Endpoints address', () => {
    expect(() => endpointAddress({}, '0.0.0.0')).toThrow('set KUBE_REGISTER_ADDRESS');
    expect(() => endpointAddress({}, '::')).toThrow('set KUBE_REGISTER_ADDRESS');
  });
});
