// Regenerates api/proto/k8s.io/go-fields.json from kube's Go types at a tag:
//   node api/proto/tools/go-fields.generate.mjs v0.33.9 <git dir of k8s.io/api> <apimachinery> <apiextensions-apiserver> <kube-aggregator>
// What the .proto files do not say and the Go field declarations do, per message: `ptr` pointer fields (Go's
// Marshal skips them when nil and writes every other field, zero or not), `keep` fields whose zero value kube's
// JSON shows (pointers, no omitempty), `inline` embedded structs whose JSON fields sit in the parent, `json` the
// JSON name where it differs from the proto one (JSONSchemaProps' $ref, x-kubernetes-*).
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const [tag, apiRepo, machineryRepo, extensionsRepo, aggregatorRepo] = process.argv.slice(2);
const git = (repo, ...args) => execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
const protoDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const protos = execFileSync('find', [protoDir, '-name', 'generated.proto'], { encoding: 'utf8' }).trim().split('\n');
const sources = protos.map((p) => p.slice(protoDir.length + 1).replace(/\/generated\.proto$/, ''));
const repoOf = (dir) => {
  if (dir.startsWith('k8s.io/api/')) return [apiRepo, dir.slice('k8s.io/api/'.length)];
  if (dir.startsWith('k8s.io/apimachinery/')) return [machineryRepo, dir.slice('k8s.io/apimachinery/'.length)];
  if (dir.startsWith('k8s.io/apiextensions-apiserver/')) return [extensionsRepo, dir.slice('k8s.io/apiextensions-apiserver/'.length)];
  return [aggregatorRepo, dir.slice('k8s.io/kube-aggregator/'.length)];
};
const out = {};
for (const dir of sources) {
  const [repo, path] = repoOf(dir);
  const pkg = dir.replace(/[/]/g, '.').replace(/-/g, '_');
  const files = git(repo, 'ls-tree', '--name-only', `${tag}:${path}`).split('\n').filter((f) => f.endsWith('.go') && !f.endsWith('_test.go') && !f.startsWith('zz_') && !f.includes('generated'));
  for (const file of files) {
    const text = git(repo, 'show', `${tag}:${path}/${file}`);
    for (const m of text.matchAll(/^type (\w+) struct \{\n([\s\S]*?)^\}/gm)) {
      const fields = { ptr: [], keep: [], inline: [], json: {} };
      for (const line of m[2].split('\n')) {
        // "Name Type `tags`", or an embedded "Type `tags`" (its proto name is the Go type's, lower-cased).
        const f = /^\s+(?:\w+\s+)?(\S+)\s+`([^`]*)`/.exec(line);
        if (!f) continue;
        if (!/protobuf:"/.test(f[2])) continue;
        // An embedded struct's tag may omit name= (EphemeralContainerCommon): its proto name is the type's, lower-camel.
        const base = f[1].replace(/^\*/, '').replace(/^\w+\./, '');
        const name = /protobuf:"[^"]*name=([^,"]+)/.exec(f[2])?.[1] ?? base[0].toLowerCase() + base.slice(1);
        const json = (/json:"([^"]*)"/.exec(f[2])?.[1] ?? '').split(',');
        if (!name) continue;
        const pointer = f[1].startsWith('*');
        if (pointer) fields.ptr.push(name);
        if (pointer || !json.includes('omitempty')) fields.keep.push(name);
        if (json.includes('inline')) fields.inline.push(name);
        else if (json[0] && json[0] !== name) fields.json[name] = json[0];
      }
      const entry = {};
      for (const [k, v] of Object.entries(fields)) if (Array.isArray(v) ? v.length : Object.keys(v).length) entry[k] = Array.isArray(v) ? v.sort() : v;
      if (Object.keys(entry).length) out[`${pkg}.${m[1]}`] = entry;
    }
  }
}
writeFileSync(join(protoDir, 'k8s.io/go-fields.json'), `${JSON.stringify(out, null, 1)}\n`);
console.log(`${Object.keys(out).length} messages`);
