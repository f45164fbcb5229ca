import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { kubectlSession } from '../support/kubectl.session';
import { startStack, type StackHarness } from '../support/core-api.harness';
import { until } from '../support/until';

// Unmodified CRDs of six widely used projects (test/fixtures/real-world/README.md): each becomes Established,
// `kubectl explain` works on it, an object of each kind can be created, printer columns print as on a
// cluster, and kube's size limits apply to them.

const ROOT = join(__dirname, '../fixtures/real-world');
const PROJECTS = readdirSync(ROOT, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

interface Crd {
  project: string;
  file: string;
  name: string;
  kind: string;
  group: string;
  plural: string;
  namespaced: boolean;
  storageVersion: string;
}

const CRDS: Crd[] = PROJECTS.flatMap((project) =>
  readdirSync(join(ROOT, project, 'crds')).flatMap((file) =>
    parseAllDocuments(readFileSync(join(ROOT, project, 'crds', file), 'utf8'))
      .map((d) => d.toJS() as { metadata: { name: string }; spec: { group: string; scope: string; names: { kind: string; plural: string }; versions: Array<{ name: string; storage: boolean }> } } | null)
      .filter((d) => d !== null)
      .map((d) => ({
        project,
        file: join(ROOT, project, 'crds', file),
        name: d.metadata.name,
        kind: d.spec.names.kind,
        group: d.spec.group,
        plural: d.spec.names.plural,
        namespaced: d.spec.scope === 'Namespaced',
        storageVersion: d.spec.versions.find((v) => v.storage)?.name ?? '',
      })),
  ),
);

/** kubectl's table output as cells, cut at the header's column starts (a nil cell prints as nothing). */
function table(out: string): string[][] {
  const [header, ...rows] = out.trimEnd().split('\n');
  const names = header.trim().split(/\s{2,}/);
  const starts: number[] = [];
  let from = 0;
  for (const name of names) {
    const at = header.indexOf(name, from);
    starts.push(at);
    from = at + name.length;
  }
  return [names, ...rows.map((r) => starts.map((start, i) => r.slice(start, starts[i + 1] ?? r.length).trim()))];
}

const AGE = /^\d+(s|m\d*s?)$/;

describe('real-world CRDs', () => {
  let stack: StackHarness;
  const admin = kubectlSession('1.33', () => stack.kubeconfig);

  beforeAll(async () => {
    stack = await startStack();
    for (const project of PROJECTS) {
      const r = await admin.k(['create', '-f', join(ROOT, project, 'crds')], undefined, 180_000);
      expect(r.code, `${project}: ${r.stderr}`).toBe(0);
    }
  }, 600_000);

  afterAll(async () => {
    await stack?.stop();
  });

  it(`has CRDs of ${PROJECTS.length} projects, and every one becomes Established`, async () => {
    expect(PROJECTS.length).toBeGreaterThanOrEqual(5);
    expect(CRDS.length).toBeGreaterThanOrEqual(20);
    const established = await until(async () => {
      const list = JSON.parse((await admin.k(['get', 'crds', '-o', 'json'])).stdout) as { items: Array<{ metadata: { name: string }; status?: { conditions?: Array<{ type: string; status: string }> } }> };
      const ok = new Set(list.items.filter((c) => c.status?.conditions?.some((x) => x.type === 'Established' && x.status === 'True')).map((c) => c.metadata.name));
      return CRDS.every((c) => ok.has(c.name));
    }, 120_000);
    expect(established).toBe(true);
  }, 180_000);

  it('refuses a client-side apply of the 1.4 MB ApplicationSet CRD as kube does: its last-applied annotation is over 256 KiB', async () => {
    const r = await admin.k(['apply', '-f', join(ROOT, 'argo-cd/crds/applicationset-crd.yaml')], undefined, 120_000);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('The CustomResourceDefinition "applicationsets.argoproj.io" is invalid: metadata.annotations: Too long: must have at most 262144 bytes');
  }, 180_000);

  describe.each(['1.27', '1.33'])('with kubectl %s', (version) => {
    const { k, ok } = kubectlSession(version, () => stack.kubeconfig);
    const ns = `rw-${version.replace('.', '')}`;

    beforeAll(async () => {
      await ok(['create', 'namespace', ns]);
    });

    // The cluster-scoped objects go, so that the other kubectl version can create them again (and delete is exercised).
    afterAll(async () => {
      for (const project of PROJECTS) await k(['delete', '-n', ns, '-f', join(ROOT, project, 'objects.yaml'), '--wait=false']);
    }, 300_000);

    it.each(PROJECTS)('creates one object of each %s kind', async (project) => {
      const out = await ok(['create', '-n', ns, '-f', join(ROOT, project, 'objects.yaml')]);
      const kinds = CRDS.filter((c) => c.project === project);
      for (const crd of kinds) expect(out, crd.kind).toMatch(new RegExp(`^${crd.kind.toLowerCase()}\\.${crd.group.replace(/\./g, '\\.')}/\\S+ created$`, 'm'));
    }, 120_000);

    it('explains every kind and its spec', async () => {
      for (const crd of CRDS) {
        const top = await ok(['explain', `${crd.plural}.${crd.group}`]);
        expect(top, crd.name).toMatch(new RegExp(`KIND:\\s+${crd.kind}\\b`));
        expect(top, crd.name).toContain(crd.group);
        expect(top, crd.name).toMatch(/^\s+(spec|status)\s/m);
      }
      const field = await ok(['explain', 'certificates.cert-manager.io.spec.secretName']);
      expect(field).toMatch(/FIELD:\s+secretName/);
      expect(field.replace(/\s+/g, ' ')).toContain('Name of the Secret resource that will be automatically created and managed by this Certificate');
    }, 300_000);

    it('prints printer columns as a cluster does: filters, arrays, first values, integers and empty cells', async () => {
      const now = '2026-01-01T00:00:00Z';
      const status = async (resource: string, name: string, body: unknown, subresource = true): Promise<void> => {
        const args = ['patch', resource, name, '-n', ns, '--type', 'merge', '-p', JSON.stringify({ status: body })];
        await ok(subresource ? [...args, '--subresource=status'] : args);
      };
      await status('certificate', 'tls-a', { notAfter: '2027-01-01T00:00:00Z', conditions: [{ type: 'Issuing', status: 'False', reason: 'Done', message: 'done', lastTransitionTime: now }, { type: 'Ready', status: 'True', reason: 'Ready', message: 'Certificate is up to date and has not expired', lastTransitionTime: now }] });
      await status('gateway', 'gw', { addresses: [{ type: 'IPAddress', value: '10.0.0.1' }, { type: 'IPAddress', value: '10.0.0.2' }], conditions: [{ type: 'Programmed', status: 'True', reason: 'Programmed', message: 'ok', lastTransitionTime: now, observedGeneration: 1 }] });
      await status('gitrepository', 'podinfo', { conditions: [{ type: 'Ready', status: 'True', reason: 'Succeeded', message: "stored artifact for revision 'master@sha1:abc'", lastTransitionTime: now }] });
      await status('scaledobject', 'worker', { scaleTargetKind: 'apps/v1.Deployment', conditions: [{ type: 'Ready', status: 'True' }, { type: 'Active', status: 'False' }] });
      await status('application', 'guestbook', { sync: { status: 'Synced', revision: 'abc123' }, health: { status: 'Healthy' } }, false);

      const get = async (...args: string[]): Promise<string[][]> => table(await ok(['get', ...args, '-n', ns]));
      const withoutAge = (rows: string[][], ageColumn: number): string[][] =>
        rows.map((r, i) => {
          if (i > 0) expect(r[ageColumn] ?? '', r.join('|')).toMatch(AGE);
          return r.filter((_, j) => j !== ageColumn || i === 0);
        });

      expect(withoutAge(await get('certificate', 'tls-a'), 3)).toEqual([['NAME', 'READY', 'SECRET', 'AGE'], ['tls-a', 'True', 'tls-a']]);
      expect(withoutAge(await get('certificate', 'tls-a', '-o', 'wide'), 6)).toEqual([
        ['NAME', 'READY', 'SECRET', 'ISSUER', 'STATUS', 'EXPIRATION', 'AGE'],
        ['tls-a', 'True', 'tls-a', 'selfsigned', 'Certificate is up to date and has not expired', '2027-01-01T00:00:00Z'],
      ]);
      expect(withoutAge(await get('certificaterequest', 'tls-a-1'), 6)).toEqual([['NAME', 'APPROVED', 'DENIED', 'READY', 'ISSUER', 'REQUESTER', 'AGE'], ['tls-a-1', '', '', '', 'selfsigned', 'jane']]);
      expect(withoutAge(await get('gateway', 'gw'), 4)).toEqual([['NAME', 'CLASS', 'ADDRESS', 'PROGRAMMED', 'AGE'], ['gw', 'example', '10.0.0.1', 'True']]);
      expect(withoutAge(await get('httproute', 'web'), 2)).toEqual([['NAME', 'HOSTNAMES', 'AGE'], ['web', '["a.example.com"]']]);
      expect(withoutAge(await get('gitrepository', 'podinfo'), 2)).toEqual([['NAME', 'URL', 'AGE', 'READY', 'STATUS'], ['podinfo', 'https://github.com/stefanprodan/podinfo', 'True', "stored artifact for revision 'master@sha1:abc'"]]);
      expect(withoutAge(await get('scaledobject', 'worker'), 11)).toEqual([
        ['NAME', 'SCALETARGETKIND', 'SCALETARGETNAME', 'MIN', 'MAX', 'READY', 'ACTIVE', 'FALLBACK', 'PAUSED', 'TRIGGERS', 'AUTHENTICATIONS', 'AGE'],
        ['worker', 'apps/v1.Deployment', 'worker', '1', '10', 'True', 'False', '', '', '', ''],
      ]);
      // First value of `[*]` only; declared columns without Age: no Age.
      expect(await get('triggerauthentication', 'rabbitmq')).toEqual([['NAME', 'PODIDENTITY', 'SECRET', 'ENV', 'VAULTADDRESS'], ['rabbitmq', '', 'rabbitmq-conn', '', '']]);
      // Declared columns without Age replace the default ones entirely.
      expect(await get('application', 'guestbook')).toEqual([['NAME', 'SYNC STATUS', 'HEALTH STATUS'], ['guestbook', 'Synced', 'Healthy']]);
      // No declared columns: Name and Age.
      expect(withoutAge(await get('servicemonitor', 'web'), 1)).toEqual([['NAME', 'AGE'], ['web']]);
      const challenge = await k(['get', 'challenge', 'tls-a-1-challenge', '-n', ns]);
      expect(withoutAge(table(challenge.stdout), 3)).toEqual([['NAME', 'STATE', 'DOMAIN', 'AGE'], ['tls-a-1-challenge', '', 'a.example.com']]);
    }, 300_000);

    it('applies kube limits to custom objects: name length, annotations size', async () => {
      const long = 'a'.repeat(254);
      const named = await k(['create', '-n', ns, '-f', '-'], JSON.stringify({ apiVersion: 'monitoring.coreos.com/v1', kind: 'PrometheusRule', metadata: { name: long }, spec: {} }));
      expect(named.code).toBe(1);
      expect(named.stderr).toContain('metadata.name: Invalid value: "aaaa');
      expect(named.stderr).toContain('must be no more than 253 characters');
      const rule = JSON.parse(await ok(['get', '-n', ns, 'prometheusrule', 'web', '-o', 'json']));
      rule.metadata.annotations = { big: 'x'.repeat(262_145) };
      const annotated = await k(['replace', '-f', '-'], JSON.stringify(rule));
      expect(annotated.code).toBe(1);
      expect(annotated.stderr).toContain('metadata.annotations: Too long: must have at most 262144 bytes');
    }, 120_000);
  });
});
