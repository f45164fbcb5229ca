import { describe, expect, it } from 'vitest';
import { RegistrationSubjects, serviceSubject, subjectPattern, subjectService } from './registration.subjects';

describe('registration subjects', () => {
  it('gives every service its own announce and withdraw subject, and reads the service back', () => {
    expect(serviceSubject(RegistrationSubjects.announce, 'core-api')).toBe('kube.registration.v1.announce.core-api');
    expect(serviceSubject(RegistrationSubjects.withdraw, 'extensions')).toBe('kube.registration.v1.withdraw.extensions');
    expect(subjectService('kube.registration.v1.announce.core-api')).toBe('core-api');
    expect(subjectPattern('kube.registration.v1.withdraw.extensions')).toBe(RegistrationSubjects.withdraw);
    expect(subjectPattern(RegistrationSubjects.resync)).toBe(RegistrationSubjects.resync);
    expect(subjectService(RegistrationSubjects.resync)).toBeUndefined();
  });

  it('knows no wildcard, multi-token or foreign subject as a service subject', () => {
    for (const subject of [RegistrationSubjects.announce, 'kube.registration.v1.announce.>', 'kube.registration.v1.announce.a.b', 'kube.registration.v1.announce.', 'kube.registration.v1.announce.Core', 'kube.registration.v1.other', 'kube.registration.v1.announce']) {
      expect(subjectPattern(subject)).toBeUndefined();
      expect(subjectService(subject)).toBeUndefined();
    }
  });
});
