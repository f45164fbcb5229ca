/**
 * `node dist/scripts/etcd-auth.js --endpoints URL[,URL…] --ca FILE --cert FILE --key FILE [--aggregated COMPONENT=GROUP]… [--aggregated-file FILE] [--timeout SECONDS]`
 *
 * The one-shot step that gives etcd its users and roles (scripts/etcd-access.ts) and turns its authentication on,
 * run before any API server starts: docker-compose's `etcd-auth` service and the Helm chart's etcd-auth Job (npm
 * start does the same in-process). It connects with etcd's root client certificate (CN root), which only this step
 * holds. The aggregated servers come from --aggregated and from --aggregated-file (generate-pki's
 * etcd-aggregated-servers.json, so that compose's list lives in one place). Idempotent: it runs at every start, so an etcd from before (data, no authentication) comes up with it, and
 * a changed table (an aggregated server added or removed) is applied.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { applyEtcdAccess, parseAggregatedEtcdClient, parseAggregatedEtcdClients } from './etcd-access';

const USAGE = 'usage: etcd-auth --endpoints https://HOST:2379[,…] --ca FILE --cert FILE --key FILE [--aggregated COMPONENT=GROUP]... [--aggregated-file FILE] [--timeout SECONDS]';

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      endpoints: { type: 'string' },
      ca: { type: 'string' },
      cert: { type: 'string' },
      key: { type: 'string' },
      aggregated: { type: 'string', multiple: true, default: [] },
      'aggregated-file': { type: 'string' },
      timeout: { type: 'string', default: '120' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  if (!values.endpoints || !values.ca || !values.cert || !values.key) throw new Error(USAGE);
  const endpoints = values.endpoints.split(',').filter(Boolean);
  if (!endpoints.every((e) => e.startsWith('https://'))) throw new Error(`--endpoints ${values.endpoints}: etcd is reached over TLS only (https://)`);
  const timeout = Number(values.timeout);
  if (!Number.isFinite(timeout) || timeout < 0) throw new Error(`--timeout ${values.timeout}: expected seconds`);
  const [caPem, certPem, keyPem] = [values.ca, values.cert, values.key].map((f) => readFileSync(f, 'utf8'));
  await applyEtcdAccess({
    endpoints,
    tls: { caPem, certPem, keyPem },
    aggregated: [...(values.aggregated ?? []).map(parseAggregatedEtcdClient), ...(values['aggregated-file'] ? parseAggregatedEtcdClients(readFileSync(values['aggregated-file'], 'utf8')) : [])],
    timeoutMs: timeout * 1000,
    log: (line) => console.log(`[etcd-auth] ${line}`),
  });
}

main().catch((err: unknown) => {
  console.error(`[etcd-auth] ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
