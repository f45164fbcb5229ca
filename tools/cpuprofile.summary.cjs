#!/usr/bin/env node
// Summarises V8 .cpuprofile files (node --cpu-prof, or BENCH_PROFILE_DIR with `npm run bench`): self and total
// time by function and self time by file, so a profile can be read without DevTools.
//   node tools/cpuprofile.summary.cjs <file-or-dir>... [--top N] [--filter substring] [--under function]
// --filter shows only matching rows; --under counts only samples with a matching function on the stack.
const { readFileSync, readdirSync, statSync } = require('node:fs');
const { join, relative } = require('node:path');

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  if (i < 0) return fallback;
  const value = args[i + 1];
  args.splice(i, 2);
  return value;
};
const top = Number(option('--top', 30));
const filter = option('--filter', '');
const under = option('--under', '');
const files = args.flatMap((p) => (statSync(p).isDirectory() ? readdirSync(p).filter((f) => f.endsWith('.cpuprofile')).map((f) => join(p, f)) : [p]));
if (!files.length) {
  console.error('usage: cpuprofile.summary.cjs <file-or-dir>... [--top N] [--filter substring] [--under function]');
  process.exit(2);
}

const short = (url) => relative(process.cwd(), url.replace(/^file:\/\//, '')) || '(native)';
for (const file of files) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const selfMs = new Map();
  for (let i = 0; i < profile.samples.length; i++) selfMs.set(profile.samples[i], (selfMs.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  const fnSelf = new Map();
  const fnTotal = new Map();
  const fileSelf = new Map();
  let all = 0;
  let idle = 0;
  const key = (n) => `${n.callFrame.functionName || '(anonymous)'} ${short(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;
  const stack = (node) => {
    const out = [];
    for (let n = node; n; n = byId.get(parent.get(n.id))) out.push(n);
    return out;
  };
  for (const [id, ms] of selfMs) {
    const node = byId.get(id);
    if (under && !stack(node).some((n) => key(n).includes(under))) continue;
    all += ms;
    if (node.callFrame.functionName === '(idle)') idle += ms;
    fnSelf.set(key(node), (fnSelf.get(key(node)) ?? 0) + ms);
    fileSelf.set(short(node.callFrame.url), (fileSelf.get(short(node.callFrame.url)) ?? 0) + ms);
    // Total time: each function on the stack once, however deep it recurses.
    const seen = new Set();
    for (const n of stack(node)) {
      const k = key(n);
      if (seen.has(k)) continue;
      seen.add(k);
      fnTotal.set(k, (fnTotal.get(k) ?? 0) + ms);
    }
  }
  const busy = all - idle;
  const print = (title, map) => {
    console.log(`\n  ${title}`);
    const rows = [...map].filter(([k]) => k.includes(filter)).sort((a, b) => b[1] - a[1]).slice(0, top);
    for (const [k, ms] of rows) console.log(`  ${ms.toFixed(0).padStart(8)} ms ${((ms / busy) * 100).toFixed(1).padStart(5)}%  ${k}`);
  };
  console.log(`${file}: ${all.toFixed(0)} ms sampled, ${busy.toFixed(0)} ms busy (percentages of busy time)`);
  print('self time by function', fnSelf);
  print('total time by function', fnTotal);
  print('self time by file', fileSelf);
}
