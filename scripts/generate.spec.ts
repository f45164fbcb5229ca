import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GENERATED_MARKER, SCHEMA_MODULES, generatedFiles } from './generate';

const REPO = resolve(__dirname, '..');

describe('npm run generate', () => {
  const generated = generatedFiles(REPO);

  it.each([...generated.keys()])('%s is what the generator writes (run `npm run generate` after changing api/ or the generator)', (file) => {
    expect(readFileSync(resolve(REPO, file), 'utf8') === generated.get(file)).toBe(true);
  });

  it('generates every file in apps/ and libs/ that says it is generated', () => {
    const marked = execFileSync('git', ['grep', '-l', '--fixed-strings', GENERATED_MARKER, '--', 'apps', 'libs'], { cwd: REPO, encoding: 'utf8' }).split('\n').filter(Boolean).sort();
    expect(marked).toEqual([...generated.keys()].sort());
  });

  it('emits each schema with its $ref targets, so the modules are closed under $ref (meta/v1 and the module shared from aside)', () => {
    const meta = generated.get('libs/apiserver/src/openapi/meta-v1.schemas.ts') ?? '';
    for (const [file, text] of generated) {
      const sharesFrom = SCHEMA_MODULES.find((m) => m.file === file)?.sharesFrom;
      const shared = sharesFrom ? (generated.get(sharesFrom) ?? '') : '';
      for (const [, ref] of text.matchAll(/"\$ref": "#\/components\/schemas\/([^"]+)"/g)) {
        const defined = (t: string): boolean => t.includes(`\n  "${ref}": {`);
        expect(defined(text) || defined(meta) || defined(shared), `${file} refers to ${ref}`).toBe(true);
      }
    }
  });
});
