import base from '../../vitest.config.mts';

// The project's config (aliases, swc) with only the oracle check included (mergeConfig would append to include).
export default { ...base, test: { ...base.test, include: ['tools/smd-oracle/*.check.ts'], maxWorkers: 1 } };
