/**
 * The CPU of one CREATE inside a server, without network, TLS or etcd: the request body parsed, the REST
 * handler's decode and write stages (defaulting, managedFields, validation, pruning), the storage encoding, the
 * response JSON. A configmap and the 50-field custom resource of bench/run.ts, in the same process, so the ratio
 * holds on a loaded machine. `node dist/bench/write-path.micro.js [rounds]`; add --cpu-prof to profile.
 */
import 'reflect-metadata';
import type { KubeObject } from '@kube/apimachinery';
import { RestHandler, type ResourceDefinition, type WriteOptions } from '@kube/apiserver';
import type { StorageInterface } from '@kube/storage';
import { coreV1Components } from '../apps/core-api/src/openapi';
import { configMapsResource } from '../apps/core-api/src/resources/configmaps.resource';
import type { CustomResourceDefinition } from '../apps/extensions/src/crd/crd.types';
import { customResourceDefinitions } from '../apps/extensions/src/custom-resources/custom-resource.definitions';
import { cachedJson } from '../libs/apiserver/src/response.writer';
import { crd, fiftyFields } from './custom-resource.fixtures';

/** Creates succeed at once with the next revision, encoded as the etcd storage encodes them. */
function memoryStorage(def: ResourceDefinition): StorageInterface {
  let revision = 1;
  const unsupported = (): never => {
    throw new Error('not part of the micro benchmark');
  };
  return {
    resource: { group: def.group, resource: def.plural },
    start: () => Promise.resolve(),
    create: (obj: KubeObject) => {
      const { resourceVersion: _rv, ...meta } = obj.metadata;
      Buffer.from(JSON.stringify({ ...obj, metadata: meta }));
      return Promise.resolve({ ...obj, metadata: { ...obj.metadata, resourceVersion: String(++revision) } });
    },
    get: unsupported,
    tryGet: unsupported,
    list: unsupported,
    guaranteedUpdate: unsupported,
    delete: unsupported,
    watch: unsupported,
  };
}

async function measure(name: string, def: ResourceDefinition, body: (i: number) => string, rounds: number): Promise<number> {
  const handler = new RestHandler(def, memoryStorage(def));
  const opts: WriteOptions = { dryRun: false, fieldValidation: 'Strict' };
  const once = async (i: number): Promise<void> => {
    const ctx = { user: { name: 'bench', groups: [] }, namespace: 'default', dryRun: false, warnings: [], userAgent: 'bench/v1' };
    cachedJson(await handler.create(ctx, 'default', JSON.parse(body(i)), opts));
  };
  for (let i = 0; i < Math.min(2000, rounds); i++) await once(-i - 1);
  const t0 = process.cpuUsage();
  for (let i = 0; i < rounds; i++) await once(i);
  const used = process.cpuUsage(t0);
  const us = (used.user + used.system) / rounds;
  console.log(`${name.padEnd(36)} ${us.toFixed(1).padStart(7)} µs CPU per create (${rounds} rounds)`);
  return us;
}

async function main(): Promise<void> {
  const rounds = Number(process.argv[2] ?? 20_000);
  const [crDef] = customResourceDefinitions(crd(0) as CustomResourceDefinition);
  const spec = fiftyFields();
  // As core-api serves it: with its OpenAPI schema (the field manager's type).
  const cmDef: ResourceDefinition = { ...configMapsResource, schema: { name: 'io.k8s.api.core.v1.ConfigMap', components: coreV1Components } };
  const cm = await measure('CREATE configmap (in process)', cmDef, (i) => JSON.stringify({ metadata: { name: `cm-${i}` }, data: { key: 'value', other: 'x'.repeat(200) } }), rounds);
  const cr = await measure('CREATE custom resource (in process)', crDef, (i) => JSON.stringify({ apiVersion: 'crbench.example.com/v1', kind: 'Thing0', metadata: { name: `cr-${i}` }, spec }), rounds);
  console.log(`custom resource / configmap          ${(cr / cm).toFixed(2)}×`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
