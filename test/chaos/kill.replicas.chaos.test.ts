/**
 * kill -9 of one replica under load, with CHAOS_REPLICAS (default 2) instances of core-api, extensions and the
 * aggregator (issue 30; see kill.suite.ts). `npm test` kills the second replica of each once; `npm run chaos`
 * (CHAOS_RUNS) kills every replica of each, CHAOS_RUNS times.
 */
import { describeKillSuite } from './kill.suite';
import { type Instance, REPLICATED } from './process.stack';

const replicas = Math.max(2, Number(process.env.CHAOS_REPLICAS ?? 2));
const all = process.env.CHAOS_RUNS !== undefined;
const victims = REPLICATED.flatMap((part) => Array.from({ length: replicas }, (_, i) => (i === 0 ? part : (`${part}.${i}` as Instance))).filter((_, i) => all || i === 1));

describeKillSuite({ replicas, victims, totalsFile: 'kill-replicas-totals.json' });
