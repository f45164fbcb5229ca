/** kill -9 of each process of the stack under load, one instance of each service (see kill.suite.ts). */
import { describeKillSuite } from './kill.suite';
import { KILLABLE } from './process.stack';

describeKillSuite({ replicas: 1, victims: KILLABLE, totalsFile: 'kill-totals.json' });
