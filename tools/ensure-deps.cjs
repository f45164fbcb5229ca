#!/usr/bin/env node
// Runs `npm install` when node_modules is missing or older than package-lock.json, so that `npm start` and
// `npm test` work on a fresh clone. Plain CommonJS with no dependencies: it runs before anything is installed.
const { existsSync, statSync } = require('node:fs');
const { spawnSync } = require('node:child_process');
const { join } = require('node:path');

const root = join(__dirname, '..');
const marker = join(root, 'node_modules', '.package-lock.json');
const lock = join(root, 'package-lock.json');
const stale = !existsSync(marker) || (existsSync(lock) && statSync(lock).mtimeMs > statSync(marker).mtimeMs + 1000);
if (stale) {
  console.log('[deps] installing npm dependencies …');
  // `npm ci` refuses lock files whose optional platform packages the registry does not serve; install does not.
  const r = spawnSync('npm', ['install', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
  process.exit(r.status ?? 1);
}
