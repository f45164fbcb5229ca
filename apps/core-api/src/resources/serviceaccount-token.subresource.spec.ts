import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { StatusError, type KubeObject } from '@kube/apimachinery';
import { DEFAULT_SERVICE_ACCOUNT_ISSUER, ServiceAccountTokens, type RequestContext } from '@kube/apiserver';
import { serviceAccountTokenSubresource, type BoundObjectStores } from './serviceaccount-token.subresource';

const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
const keyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const tokens = new ServiceAccountTokens({ issuer: DEFAULT_SERVICE_ACCOUNT_ISSUER, keyPem, signingKeyPem: keyPem }, () => 'sa-uid');
const objects: Record<string, KubeObject> = {
  'pods/web': { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'ns', uid: 'pod-uid' }, spec: { serviceAccountName: 'robot' } },
  'pods/other': { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'other', namespace: 'ns', uid: 'other-uid' }, spec: { serviceAccountName: 'default' } },
  'secrets/s': { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: 'ns', uid: 'secret-uid' } },
};
const reader = (plural: string) => ({ tryGet: async (_ns: string | undefined, name: string) => objects[`${plural}/${name}`] });
const stores: BoundObjectStores = { pods: reader('pods'), secrets: reader('secrets') };
const sub = serviceAccountTokenSubresource(tokens, stores);
const sa: KubeObject = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'robot', namespace: 'ns', uid: 'sa-uid' } };
const ctx = { user: { name: 'admin', groups: [] }, warnings: [], dryRun: false } as unknown as RequestContext;

const create = (spec: object): Promise<KubeObject> => Promise.resolve(sub.creater!.create(sa, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec }, ctx));
const claims = (obj: KubeObject): Record<string, unknown> => JSON.parse(Buffer.from(((obj.status as { token: string }).token).split('.')[1], 'base64url').toString()) as Record<string, unknown>;
const failure = async (spec: object): Promise<StatusError> => {
  const err = await create(spec).then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(StatusError);
  return err as StatusError;
};

describe('serviceaccounts/token', () => {
  it('defaults to an hour and the API audiences, and answers a TokenRequest with the token', async () => {
    const out = await create({});
    expect(out).toMatchObject({ kind: 'TokenRequest', metadata: { name: 'robot', namespace: 'ns' }, spec: { audiences: [DEFAULT_SERVICE_ACCOUNT_ISSUER], expirationSeconds: 3600 } });
    const c = claims(out);
    expect((c.exp as number) - (c.iat as number)).toBe(3600);
    expect(new Date((out.status as { expirationTimestamp: string }).expirationTimestamp).getTime() / 1000).toBe(c.exp);
  });

  it('binds to a Pod running as the ServiceAccount, or a Secret, as kube checks them', async () => {
    expect(claims(await create({ boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'web' } }))['kubernetes.io']).toMatchObject({ pod: { name: 'web', uid: 'pod-uid' } });
    expect(claims(await create({ boundObjectRef: { kind: 'Secret', apiVersion: 'v1', name: 's', uid: 'secret-uid' } }))['kubernetes.io']).toMatchObject({ secret: { name: 's', uid: 'secret-uid' } });
    expect((await failure({ boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'other' } })).message).toBe('cannot bind token for serviceaccount "robot" to pod running with different serviceaccount name.');
    expect((await failure({ boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'gone' } })).status.code).toBe(404);
    const conflict = await failure({ boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'web', uid: 'old' } });
    expect(conflict.status.code).toBe(409);
    expect(conflict.message).toContain('the UID in the bound object reference (old) does not match the UID in record');
    expect((await failure({ boundObjectRef: { kind: 'Deployment', apiVersion: 'apps/v1', name: 'd' } })).message).toBe('cannot bind token to object of type apps/v1, Kind=Deployment');
  });

  it('refuses durations outside kube\'s bounds', async () => {
    const short = await failure({ expirationSeconds: 599 });
    expect(short.status.code).toBe(422);
    expect(short.message).toContain('spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes');
    expect((await failure({ expirationSeconds: 2 ** 32 + 1 })).message).toContain('may not specify a duration larger than 2^32 seconds');
  });
});
