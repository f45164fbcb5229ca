/**
 * docker-compose.yml for real (opt-in: KUBE_TEST_COMPOSE=1, which .ci/run sets): builds the image with
 * `npm run image -- --compose`, runs the stack with docker-compose under a project name of its own (front door
 * on a free port of 127.0.0.1, the kubeconfig in a temporary folder), waits until every service is healthy, and
 * drives it with kubectl through the front door: namespaces, configmaps, a CRD and its objects, the wardle
 * server's Flunders, its APIService going unavailable while its container is stopped and available again once
 * it runs. Then `docker-compose down` (volumes kept) and `up` again: everything written is still there. The
 * stack and its volumes are removed at the end, whatever happened.
 *
 * Every command and its output go to .local/compose-stack.log (docs/deployment.md quotes them).
 */
import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { X509Certificate } from 'node:crypto';
import { rootCertificates } from 'node:tls';
import { join } from 'node:path';
import { freePort, runKubectl, tempDir, type KubectlResult } from '@kube/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cronTab } from '../../apps/extensions/src/crd/crd.testing';
import { until } from '../support/until';
import { parse } from 'yaml';
import { read, ROOT } from './deploy.helpers';

const ENABLED = process.env.KUBE_TEST_COMPOSE === '1';
const IMAGE = 'kube-ts:dev';
const LOG = join(ROOT, '.local', 'compose-stack.log');
const LONG_RUNNING = ['etcd', 'nats', 'core-api', 'extensions', 'aggregator', 'sample-apiserver', 'counts-apiserver'];
const WARDLE = 'v1alpha1.wardle.example.com';

interface Result {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

function note(text: string): void {
  appendFileSync(LOG, text.endsWith('\n') ? text : `${text}\n`);
}

/** Runs a command, logging it and its output with how long it took; never rejects on a non-zero exit. */
function sh(command: string, args: readonly string[], env: NodeJS.ProcessEnv = process.env, quiet = false): Promise<Result> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.once('error', reject);
    child.once('close', (code) => {
      const r = { code: code ?? 1, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString() };
      if (!quiet) note(`$ ${[command, ...args].join(' ')}   # exit ${r.code}, ${((Date.now() - started) / 1000).toFixed(1)} s\n${r.stdout}${r.stderr}`);
      resolve(r);
    });
  });
}

const tail = (r: Result, lines = 40): string => `${r.stdout}\n${r.stderr}`.trim().split('\n').slice(-lines).join('\n');

/** Certificates of a PEM bundle that Node does not ship: the ones a build could only have taken from the machine. */
function machineOnlyCertificates(bundlePath: string): string[] {
  const known = new Set(rootCertificates.map((pem) => new X509Certificate(pem).fingerprint256));
  const pems = readFileSync(bundlePath, 'utf8').match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  return pems.filter((pem) => !known.has(new X509Certificate(pem).fingerprint256));
}

/** Whether any of `needles` occurs in the output of `docker save IMAGE` (every layer, uncompressed). */
function imageContains(image: string, needles: readonly string[]): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const child = spawn('docker', ['save', image], { stdio: ['ignore', 'pipe', 'inherit'] });
    const longest = Math.max(...needles.map((n) => n.length));
    let carry = '';
    let found: string | undefined;
    child.stdout.on('data', (chunk: Buffer) => {
      if (found) return;
      const text = carry + chunk.toString('latin1');
      found = needles.find((n) => text.includes(n));
      carry = text.slice(-longest);
    });
    child.once('error', reject);
    child.once('close', (code) => (code === 0 || found ? resolve(found) : reject(new Error(`docker save ${image} exited ${code}`))));
  });
}

/** kube's CronTab example CRD, with a default for spec.image (the extensions server applies it). */
const CRD = ((): string => {
  const crd = cronTab();
  const spec = crd.spec.versions[0].schema?.openAPIV3Schema?.properties?.spec;
  if (!spec?.properties?.image) throw new Error('cronTab() fixture changed: no spec.image');
  spec.properties.image.default = 'busybox';
  return JSON.stringify(crd);
})();
const CRONTAB = JSON.stringify({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'nightly', namespace: 'compose-demo' }, spec: { cronSpec: '0 0 * * *' } });
const FLUNDER = JSON.stringify({ apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name: 'compose-flunder', namespace: 'compose-demo' }, spec: {} });

if (!ENABLED) {
  describe('docker-compose stack', () => {
    it.skip('skipped: set KUBE_TEST_COMPOSE=1 (needs a Docker engine, docker-compose and, without an image registry, debootstrap; .ci/run sets it up)', () => undefined);
  });
} else {
  describe('docker-compose stack, for real', () => {
    const project = `ktstest${process.pid}${Date.now().toString(36)}`;
    const outDir = tempDir('kube-ts-compose');
    const kubeconfig = join(outDir, 'kubeconfig');
    let env: NodeJS.ProcessEnv = process.env;
    const compose = (...args: string[]): Promise<Result> => sh('docker-compose', ['-f', join(ROOT, 'docker-compose.yml'), '-p', project, ...args], env);
    const kubectl = async (args: string[], stdin?: string, quiet = false): Promise<KubectlResult> => {
      const r = await runKubectl(args, { kubeconfig, stdin, timeoutMs: 120_000 });
      if (!quiet) note(`$ kubectl ${args.join(' ')}   # exit ${r.code}\n${r.stdout}${r.stderr}`);
      return r;
    };
    const ok = async (args: string[], stdin?: string): Promise<string> => {
      const r = await kubectl(args, stdin);
      expect(r.code, `kubectl ${args.join(' ')}: ${r.stderr}`).toBe(0);
      return r.stdout;
    };

    /** Service name → "running healthy", "exited 0", … for every container of the project. */
    async function states(): Promise<Map<string, string>> {
      const ids = (await sh('docker', ['ps', '-aq', '--filter', `label=com.docker.compose.project=${project}`], env, true)).stdout.split('\n').filter(Boolean);
      if (ids.length === 0) return new Map();
      const format = '{{index .Config.Labels "com.docker.compose.service"}} {{.State.Status}} {{if .State.Health}}{{.State.Health.Status}}{{else}}{{.State.ExitCode}}{{end}}';
      const r = await sh('docker', ['inspect', '--format', format, ...ids], env, true);
      return new Map(r.stdout.split('\n').filter(Boolean).map((line) => [line.split(' ')[0], line.split(' ').slice(1).join(' ')]));
    }

    /** Until every long-running service is healthy and the pki one-shot exited 0; fails with what is not. */
    async function waitHealthy(): Promise<void> {
      let last = new Map<string, string>();
      const healthy = await until(async () => {
        last = await states();
        return LONG_RUNNING.every((s) => last.get(s) === 'running healthy') && last.get('pki') === 'exited 0';
      }, 600_000);
      note(`# states: ${JSON.stringify(Object.fromEntries(last))}`);
      if (!healthy) {
        const logs = await compose('logs', '--no-color', '--tail=30');
        throw new Error(`not healthy within 10 min: ${JSON.stringify(Object.fromEntries(last))}\n${tail(logs, 120)}`);
      }
    }

    /** Polled, so not logged: the Available condition's status of the wardle APIService. */
    const wardleAvailable = async (): Promise<string> =>
      (await kubectl(['get', 'apiservice', WARDLE, '-o', 'jsonpath={.status.conditions[?(@.type=="Available")].status}'], undefined, true)).stdout;

    beforeAll(async () => {
      mkdirSync(join(ROOT, '.local'), { recursive: true });
      writeFileSync(LOG, `# compose stack test, project ${project}, ${new Date().toISOString()}\n`);
      const started = Date.now();
      const built = await sh('npm', ['run', 'image', '--', '--compose']);
      expect(built.code, tail(built)).toBe(0);
      note(`# image built in ${Math.round((Date.now() - started) / 1000)} s`);
      // Where the base is made locally, the build names the etcd and NATS images compose must use.
      const images = Object.fromEntries([...built.stdout.matchAll(/\b(KUBE_TS_(?:ETCD|NATS)_IMAGE)=(\S+)/g)].map((m) => [m[1], m[2]]));
      env = { ...process.env, ...images, KUBE_TS_COMPOSE_PORT: String(await freePort()), KUBE_TS_COMPOSE_DIR: outDir };
      note(`# environment: ${JSON.stringify({ ...images, KUBE_TS_COMPOSE_PORT: env.KUBE_TS_COMPOSE_PORT, KUBE_TS_COMPOSE_DIR: outDir })}`);
      const upStarted = Date.now();
      const up = await compose('up', '-d');
      expect(up.code, tail(up)).toBe(0);
      await waitHealthy();
      note(`# up and healthy in ${Math.round((Date.now() - upStarted) / 1000)} s`);
    }, 40 * 60_000);

    afterAll(async () => {
      await compose('down', '-v', '--remove-orphans', '-t', '20');
      // Whatever down left behind (a failed `up` can leave created containers outside its bookkeeping).
      const left = (await sh('docker', ['ps', '-aq', '--filter', `label=com.docker.compose.project=${project}`], env, true)).stdout.split('\n').filter(Boolean);
      if (left.length) await sh('docker', ['rm', '-fv', ...left], env);
      const volumes = (await sh('docker', ['volume', 'ls', '-q', '--filter', `label=com.docker.compose.project=${project}`], env, true)).stdout.split('\n').filter(Boolean);
      if (volumes.length) await sh('docker', ['volume', 'rm', '-f', ...volumes], env);
    }, 5 * 60_000);

    it('built an image that runs as uid 1000 and holds no npm, build or test tooling', async () => {
      const config = JSON.parse((await sh('docker', ['image', 'inspect', IMAGE])).stdout)[0];
      expect(config.Config.User).toBe('1000:1000');
      note(`# ${IMAGE}: ${(config.Size / 1e6).toFixed(1)} MB`);
      const probe = await sh('docker', [
        'run', '--rm', '--entrypoint', 'sh', IMAGE, '-c',
        'id -u; for p in /usr/local/bin/npm /usr/local/lib/node_modules node_modules/typescript node_modules/vitest node_modules/@swc node_modules/.bin/tsc dist/libs/testing dist/scripts/start.js dist/bench src test; do [ -e "$p" ] && echo "present: $p"; done; find node_modules -name "*.d.ts" | head -1; echo done',
      ]);
      expect(probe.code, tail(probe)).toBe(0);
      expect(probe.stdout.trim().split('\n')).toEqual(['1000', 'done']);
    }, 5 * 60_000);

    it.skipIf(!process.env.NODE_EXTRA_CA_CERTS)('has no certificate of the machine’s CA bundle (the build secret) in any layer', async () => {
      const own = machineOnlyCertificates(process.env.NODE_EXTRA_CA_CERTS as string);
      // The body's first line identifies a certificate (the fixed-length header bytes come before it).
      const needles = own.map((pem) => pem.split('\n')[2]).filter((line) => line && line.length >= 60);
      if (needles.length === 0) return; // the bundle holds only certificates Node ships; nothing could leak
      expect(await imageContains(IMAGE, needles)).toBeUndefined();
      const history = (await sh('docker', ['history', '--no-trunc', '--format', '{{.CreatedBy}}', IMAGE])).stdout;
      expect(history).not.toContain(process.env.NODE_EXTRA_CA_CERTS);
    }, 5 * 60_000);

    it('gives each container only its own PKI files: no other service\'s key is there, keys 0600 and the folder 0700 of uid 1000', async () => {
      // The pki one-shot's bundles as docker-compose.yml lists them (--bundle=<service>=<file>,…).
      const pkiCommand = (parse(read('docker-compose.yml')) as { services: { pki: { command: string[] } } }).services.pki.command;
      const bundles = new Map(pkiCommand.filter((a) => a.startsWith('--bundle=')).map((a) => a.slice('--bundle='.length).split('=')).map(([service, files]) => [service, files.split(',').sort()]));
      const allKeys = new Set([...bundles.values()].flat().filter((f) => f.endsWith('.key')));
      for (const service of ['core-api', 'extensions', 'aggregator', 'sample-apiserver', 'counts-apiserver', 'controller-manager']) {
        const r = await compose('exec', '-T', service, 'sh', '-c', 'cd /pki && stat -c "%n %a %u" . *');
        expect(r.code, tail(r)).toBe(0);
        const [dir, ...files] = r.stdout.trim().split('\n');
        expect(dir, service).toBe('. 700 1000');
        const listed = new Map(files.map((l) => l.split(' ')).map(([name, mode, uid]) => [name, `${mode} ${uid}`]));
        expect([...listed.keys()].sort(), service).toEqual(bundles.get(service));
        // Keys and core-api's encryption-config.yaml (the key Secrets are encrypted with) owner-only.
        for (const [name, modeUid] of listed) expect(modeUid, `${service}: ${name}`).toBe(/\.key$|^encryption-config\.yaml$/.test(name) ? '600 1000' : '644 1000');
        // Not one key of another service, whatever its name.
        const foreign = [...allKeys].filter((k) => !bundles.get(service)?.includes(k));
        expect(foreign.length, service).toBeGreaterThan(0);
        const names = foreign.map((k) => `-name ${k}`).join(' -o ');
        const probe = await compose('exec', '-T', service, 'sh', '-c', `find / \\( -path /proc -o -path /sys \\) -prune -o -type f \\( ${names} \\) -print 2>/dev/null; awk '$2 ~ /^\\/(pki|bundles)/ {print "mount " $2}' /proc/mounts`);
        expect(probe.stdout.trim().split('\n').filter(Boolean), `${service}: ${tail(probe)}`).toEqual(['mount /pki']);
      }
    }, 5 * 60_000);

    it("gives the aggregated servers etcd credentials that reach their own keys only, and etcd answers no plain HTTP", async () => {
      // Inside the container, with the files it was given: what a compromised aggregated server could do.
      const attempt = (service: string): string =>
        `const {EtcdClient}=require('/app/dist/libs/storage/src');const fs=require('fs');const f=(n)=>fs.readFileSync('/pki/'+n,'utf8');` +
        `const c=new EtcdClient({endpoints:['https://etcd:2379'],tls:{caPem:f('etcd-ca.crt'),certPem:f('etcd-client-${service}.crt'),keyPem:f('etcd-client-${service}.key')}});` +
        `const plain=new EtcdClient({endpoints:['http://etcd:2379']});` +
        `Promise.allSettled([c.raw.getAll().prefix('/registry/secrets/').keys(),c.raw.put('/registry/clusterrolebindings/pwned').value('{}').exec(),plain.raw.get('/registry/namespaces/default').string()])` +
        `.then((r)=>{console.log(JSON.stringify(r.map((x)=>x.status==='fulfilled'?'allowed':x.reason.message.split('\\n')[0])));process.exit(0)})`;
      for (const service of ['sample-apiserver', 'counts-apiserver']) {
        const r = await compose('exec', '-T', service, 'node', '-e', attempt(service));
        expect(r.code, tail(r)).toBe(0);
        const [secrets, binding, plain] = JSON.parse(r.stdout.trim().split('\n').at(-1) as string) as string[];
        expect(secrets, service).toMatch(/permission denied/i);
        expect(binding, service).toMatch(/permission denied/i);
        expect(plain, service).not.toBe('allowed');
      }
    }, 120_000);

    it('publishes only the front door, on 127.0.0.1', async () => {
      const ports = await compose('port', 'aggregator', '6443');
      expect(ports.stdout.trim()).toBe(`127.0.0.1:${env.KUBE_TS_COMPOSE_PORT}`);
      const ids = (await sh('docker', ['ps', '-q', '--filter', `label=com.docker.compose.project=${project}`], env, true)).stdout.split('\n').filter(Boolean);
      const published = await sh('docker', ['inspect', '--format', '{{index .Config.Labels "com.docker.compose.service"}} {{json .NetworkSettings.Ports}}', ...ids], env, true);
      for (const line of published.stdout.trim().split('\n')) {
        const [service, json] = [line.slice(0, line.indexOf(' ')), line.slice(line.indexOf(' ') + 1)];
        const bindings = Object.values(JSON.parse(json) as Record<string, Array<{ HostIp: string }> | null>).flatMap((b) => b ?? []);
        expect(bindings.length, service).toBe(service === 'aggregator' ? 1 : 0);
        for (const b of bindings) expect(b.HostIp, service).toBe('127.0.0.1');
      }
    });

    it('serves namespaces and configmaps through the front door', async () => {
      expect(await ok(['get', 'namespaces', '-o', 'name'])).toMatch(/namespace\/default\nnamespace\/kube-node-lease\nnamespace\/kube-public\nnamespace\/kube-system/);
      expect(await ok(['create', 'namespace', 'compose-demo'])).toBe('namespace/compose-demo created\n');
      expect(await ok(['-n', 'compose-demo', 'create', 'configmap', 'settings', '--from-literal=mode=compose'])).toBe('configmap/settings created\n');
      expect(await ok(['-n', 'compose-demo', 'get', 'configmap', 'settings', '-o', 'jsonpath={.data.mode}'])).toBe('compose');
    });

    it('serves a CRD and its objects', async () => {
      expect(await ok(['apply', '-f', '-'], CRD)).toBe('customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com created\n');
      await ok(['wait', '--for=condition=Established', '--timeout=120s', 'crd/crontabs.stable.example.com']);
      expect(await until(async () => (await kubectl(['apply', '-f', '-'], CRONTAB, true)).code === 0, 120_000)).toBe(true);
      expect(await ok(['-n', 'compose-demo', 'get', 'ct', 'nightly', '-o', 'jsonpath={.spec.image}'])).toBe('busybox');
    }, 5 * 60_000);

    it('serves the wardle Flunders through their APIService', async () => {
      expect(await until(async () => (await wardleAvailable()) === 'True', 180_000)).toBe(true);
      expect(await ok(['create', '-f', '-'], FLUNDER)).toBe('flunder.wardle.example.com/compose-flunder created\n');
      expect(await ok(['-n', 'compose-demo', 'get', 'flunders', '-o', 'name'])).toBe('flunder.wardle.example.com/compose-flunder\n');
    }, 5 * 60_000);

    it.each(['1.27', '1.33'])('answers kubectl %s through the same front door', async (version) => {
      const k = (args: string[]): Promise<KubectlResult> => runKubectl(args, { kubeconfig, version, timeoutMs: 120_000 });
      const resources = await k(['api-resources', '--api-group=wardle.example.com', '-o', 'name']);
      expect(resources.code, resources.stderr).toBe(0);
      expect(resources.stdout.split('\n').sort()).toEqual(['', 'fischers.wardle.example.com', 'flunders.wardle.example.com']);
      const objects = await k(['-n', 'compose-demo', 'get', 'configmap/settings', 'crontab/nightly', 'flunder/compose-flunder', '-o', 'name']);
      expect(objects.code, objects.stderr).toBe(0);
      expect(objects.stdout).toBe('configmap/settings\ncrontab.stable.example.com/nightly\nflunder.wardle.example.com/compose-flunder\n');
    }, 5 * 60_000);

    it('marks the wardle APIService unavailable while its container is stopped, and available once it runs again', async () => {
      expect((await compose('stop', 'sample-apiserver')).code).toBe(0);
      expect(await until(async () => (await wardleAvailable()) === 'False', 180_000)).toBe(true);
      const reason = await ok(['get', 'apiservice', WARDLE, '-o', 'jsonpath={.status.conditions[?(@.type=="Available")].reason}']);
      expect(reason).toMatch(/^(FailedDiscoveryCheck|MissingEndpoints|EndpointsNotFound|ServiceNotFound)$/);
      const unavailable = await kubectl(['-n', 'compose-demo', 'get', 'flunders']);
      expect(unavailable.code).not.toBe(0);
      expect(unavailable.stderr).toMatch(/ServiceUnavailable|service unavailable|the server is currently unable to handle the request/);

      expect((await compose('start', 'sample-apiserver')).code).toBe(0);
      expect(await until(async () => (await wardleAvailable()) === 'True', 300_000)).toBe(true);
      expect(await ok(['-n', 'compose-demo', 'get', 'flunders', '-o', 'name'])).toBe('flunder.wardle.example.com/compose-flunder\n');
    }, 10 * 60_000);

    it('keeps everything across `docker-compose down` and `up` (volumes kept)', async () => {
      const kubeconfigBefore = readFileSync(kubeconfig, 'utf8');
      const down = await compose('down', '-t', '20');
      expect(down.code, tail(down)).toBe(0);
      expect((await states()).size).toBe(0);
      const volumes = (await sh('docker', ['volume', 'ls', '-q', '--filter', `label=com.docker.compose.project=${project}`], env)).stdout.split('\n').filter(Boolean);
      // The data, the PKI and each service's share of it (pki-<service>), as docker-compose.yml declares them.
      const declared = Object.keys((parse(read('docker-compose.yml')) as { volumes: Record<string, unknown> }).volumes);
      expect(declared).toEqual(expect.arrayContaining(['etcd-data', 'nats-data', 'pki', 'pki-core-api', 'pki-nats']));
      expect(volumes.sort()).toEqual(declared.map((v) => `${project}_${v}`).sort());

      const up = await compose('up', '-d');
      expect(up.code, tail(up)).toBe(0);
      await waitHealthy();
      expect(await ok(['-n', 'compose-demo', 'get', 'configmap', 'settings', '-o', 'jsonpath={.data.mode}'])).toBe('compose');
      expect(await ok(['-n', 'compose-demo', 'get', 'ct', 'nightly', '-o', 'jsonpath={.spec.cronSpec}'])).toBe('0 0 * * *');
      expect(await until(async () => (await wardleAvailable()) === 'True', 300_000)).toBe(true);
      expect(await ok(['-n', 'compose-demo', 'get', 'flunders', '-o', 'name'])).toBe('flunder.wardle.example.com/compose-flunder\n');
      // The same PKI: the pki one-shot ran again, kept the CA and admin certificate, so wrote the same kubeconfig.
      expect(readFileSync(kubeconfig, 'utf8')).toBe(kubeconfigBefore);
    }, 15 * 60_000);
  });
}
