import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import swc from 'unplugin-swc';
import { defineConfig } from 'vitest/config';

const lib = (name: string): string => resolve(dirname(fileURLToPath(import.meta.url)), `libs/${name}/src/index.ts`);

export default defineConfig({
  plugins: [swc.vite({ module: { type: 'es6' } })],
  resolve: {
    alias: {
      '@kube/apimachinery': lib('apimachinery'),
      '@kube/storage': lib('storage'),
      '@kube/apiserver': lib('apiserver'),
      '@kube/pki': lib('pki'),
      '@kube/testing': lib('testing'),
      '@kube/apiextensions': lib('apiextensions'),
      '@kube/registration': lib('registration'),
      '@kube/client': lib('client'),
      '@kube/admission': lib('admission'),
      '@kube/authorization': lib('authorization'),
      '@kube/field-management': lib('field-management'),
      '@kube/jsonpath': lib('jsonpath'),
      // The e2e kit, for tests under test/ and the e2e tests of scaffolded apps (apps/<name>/test/).
      '@test/support': resolve(dirname(fileURLToPath(import.meta.url)), 'test/support/index.ts'),
    },
  },
  test: {
    include: ['apps/**/*.spec.ts', 'libs/**/*.spec.ts', 'scripts/**/*.spec.ts', 'bench/**/*.spec.ts', 'test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: true,
    maxWorkers: 2,
  },
});
