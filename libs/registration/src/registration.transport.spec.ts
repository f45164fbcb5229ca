import { describe, expect, it } from 'vitest';
import { RegistrationSubjects, serviceSubject } from './registration.subjects';
import { RegistrationDeserializer, RegistrationSerializer } from './registration.transport';
import { REGISTRATION_API_VERSION, type ResyncRequest } from './registration.types';

const resync: ResyncRequest = { apiVersion: REGISTRATION_API_VERSION, requester: 'aggregator', sentAt: '2025-01-02T03:04:05Z' };

describe('the registration wire format on @nestjs/microservices', () => {
  const serializer = new RegistrationSerializer();

  it('emits the message itself as JSON, without Nest\'s {pattern, data} envelope or headers', () => {
    const out = serializer.serialize({ pattern: RegistrationSubjects.resync, data: resync });
    expect(Object.keys(out)).toEqual(['data']);
    expect(Buffer.from(out.data).toString('utf8')).toBe(JSON.stringify(resync));
  });

  it('refuses to emit what receivers would drop, and subjects outside the contract', () => {
    expect(() => serializer.serialize({ pattern: RegistrationSubjects.resync, data: { ...resync, requester: '' } })).toThrow(/refusing to publish an invalid registration message: \$\.requester/);
    expect(() => serializer.serialize({ pattern: serviceSubject(RegistrationSubjects.announce, 'core-api'), data: resync })).toThrow(/refusing to publish/);
    expect(() => serializer.serialize({ pattern: RegistrationSubjects.announce, data: resync })).toThrow('not a registration subject: kube.registration.v1.announce.*');
    expect(() => serializer.serialize({ pattern: 'kube.registration.v1.other', data: resync })).toThrow('not a registration subject: kube.registration.v1.other');
  });

  it('hands the raw payload to the handler of its subject, whatever it holds', () => {
    const raw = Buffer.from('{not json');
    expect(new RegistrationDeserializer().deserialize(raw, { channel: RegistrationSubjects.announce })).toEqual({ pattern: RegistrationSubjects.announce, data: raw });
  });
});
