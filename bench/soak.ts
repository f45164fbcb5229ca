/**
 * `npm run soak`: the local stack under CRD, APIService and namespace churn plus watches for SOAK_MINUTES (30),
 * every process's RSS and open descriptors sampled every SOAK_SAMPLE_SECONDS (10). Prints a table of fitted
 * slopes with a FLAT/GROWING verdict per process and writes every sample to SOAK_OUT (.local/soak) as JSON.
 * Exits 1 when a process grows, dies, or a churn operation fails. docs/operations.md explains how to read it.
 */
import { join, resolve } from 'node:path';
import { formatSoak, runSoak, soakPassed } from './soak.run';

const ROOT = resolve(__dirname, '..', '..');

function numberFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  const value = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!(value > 0)) throw new Error(`${name}=${raw} is not a positive number`);
  return value;
}

async function main(): Promise<void> {
  const result = await runSoak({
    minutes: numberFromEnv('SOAK_MINUTES', 30),
    sampleSeconds: numberFromEnv('SOAK_SAMPLE_SECONDS', 10),
    warmupFraction: 0.2,
    outDir: resolve(process.env.SOAK_OUT || join(ROOT, '.local', 'soak')),
  });
  console.log(formatSoak(result));
  console.log(`[soak] samples and slopes: ${result.file}`);
  const passed = soakPassed(result);
  console.log(`[soak] ${passed ? 'PASS: every process flat' : 'FAIL'}`);
  process.exit(passed ? 0 : 1);
}

main().catch((err: unknown) => {
  console.error(`[soak] ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  process.exit(1);
});
