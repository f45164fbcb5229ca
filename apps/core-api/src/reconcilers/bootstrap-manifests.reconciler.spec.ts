import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readBootstrapManifests } from './bootstrap-manifests.reconciler';

function dirWith(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'bootstrap-manifests-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

describe('readBootstrapManifests', () => {
  it('reads every YAML and JSON document of a directory in name order, namespaces first', () => {
    const dir = dirWith({
      'b.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: two, namespace: team}\n---\napiVersion: v1\nkind: Namespace\nmetadata: {name: team}\n',
      'a.json': JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'one' } }),
      'notes.txt': 'not a manifest',
      '.hidden.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: hidden}\n',
    });
    const names = readBootstrapManifests(dir).map((m) => ('object' in m ? `${m.object.kind}/${m.object.metadata.name}` : m.error));
    expect(names).toEqual(['Namespace/team', 'ConfigMap/one', 'ConfigMap/two']);
  });

  it('reports documents that cannot be objects instead of failing the whole set, and ignores empty ones', () => {
    const dir = dirWith({ 'x.yaml': '---\n---\nkind: ConfigMap\n---\n[1, 2]\n---\nkey: [unclosed\n---\napiVersion: v1\nkind: Secret\nmetadata: {name: ok}\n' });
    const read = readBootstrapManifests(dir);
    expect(read.filter((m) => 'object' in m).map((m) => ('object' in m ? m.object.metadata.name : ''))).toEqual(['ok']);
    const errors = read.flatMap((m) => ('error' in m ? [`${m.source.replace(/.*#/, '#')} ${m.error}`] : []));
    expect(errors).toHaveLength(3);
    expect(errors[0]).toBe('#1 not an object with apiVersion, kind and metadata.name');
    expect(errors[1]).toBe('#2 not an object with apiVersion, kind and metadata.name');
    expect(errors[2]).toMatch(/^#3 /);
  });

  it('takes a single file too', () => {
    const dir = dirWith({ 'one.yml': 'apiVersion: v1\nkind: Namespace\nmetadata: {name: solo}\n' });
    expect(readBootstrapManifests(join(dir, 'one.yml'))).toEqual([{ source: `${join(dir, 'one.yml')}#0`, object: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'solo' } } }]);
  });
});
