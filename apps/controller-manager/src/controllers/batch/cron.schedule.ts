/**
 * Cron schedules as kube's CronJob controller reads them (robfig/cron/v3 ParseStandard): five fields (minute,
 * hour, day of month, month, day of week) with `*`, `?`, lists, ranges, steps and names, the @yearly … @hourly
 * and `@every <duration>` descriptors, an optional `CRON_TZ=`/`TZ=` prefix; evaluated in an IANA time zone
 * through Intl (Go's time.LoadLocation).
 */
import { parseGoDuration } from '../../simulation/pod.lifecycle';

interface Field {
  min: number;
  max: number;
  names?: readonly string[];
}

const FIELDS: readonly Field[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'] },
  { min: 0, max: 6, names: ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] },
];

const DESCRIPTORS: Readonly<Record<string, string>> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

export interface CronSchedule {
  /** The first activation strictly after `after` (ms since the epoch), undefined when there is none within five years. */
  next(after: number): number | undefined;
}

function parseValue(text: string, f: Field): number {
  const named = f.names?.indexOf(text.toLowerCase()) ?? -1;
  if (named >= 0) return named + f.min;
  if (!/^\d+$/.test(text)) throw new Error(`failed to parse int from ${text}: strconv.Atoi: parsing "${text}": invalid syntax`);
  return Number(text);
}

function parseField(text: string, f: Field): { set: Set<number>; star: boolean } {
  const set = new Set<number>();
  let star = false;
  for (const part of text.split(',')) {
    const [range, stepText, extra] = part.split('/');
    if (extra !== undefined) throw new Error(`too many slashes: ${part}`);
    let lo: number;
    let hi: number;
    if (range === '*' || range === '?') {
      lo = f.min;
      hi = f.max;
      if (stepText === undefined) star = true;
    } else {
      const [a, b, more] = range.split('-');
      if (more !== undefined) throw new Error(`too many hyphens: ${part}`);
      lo = parseValue(a, f);
      hi = b !== undefined ? parseValue(b, f) : lo;
      if (stepText !== undefined && b === undefined) hi = f.max;
    }
    const step = stepText !== undefined ? parseValue(stepText, { min: 0, max: 0 }) : 1;
    if (lo < f.min) throw new Error(`beginning of range (${lo}) below minimum (${f.min}): ${part}`);
    if (hi > f.max) throw new Error(`end of range (${hi}) above maximum (${f.max}): ${part}`);
    if (lo > hi) throw new Error(`beginning of range (${lo}) beyond end of range (${hi}): ${part}`);
    if (step === 0) throw new Error(`step of range should be a positive number: ${part}`);
    for (let v = lo; v <= hi; v += step) set.add(v);
  }
  return { set, star };
}

/** The zone's offset from UTC at an instant, in ms. Throws for a zone Intl does not know. */
export function zoneOffsetMs(timeZone: string, at: number): number {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' }).formatToParts(new Date(at));
  const get = (t: string): number => Number(parts.find((p) => p.type === t)?.value ?? 0);
  const wall = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour') % 24, get('minute'), get('second'));
  return wall - Math.floor(at / 1000) * 1000;
}

/** time.LoadLocation: a zone Intl knows, else Go's error text. */
export function checkTimeZone(timeZone: string): string | undefined {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return undefined;
  } catch {
    return `unknown time zone ${timeZone}`;
  }
}

/** cron.ParseStandard, in `timeZone` unless the spec names its own. */
export function parseCronSchedule(spec: string, timeZone = 'UTC'): CronSchedule {
  let text = spec.trim();
  let zone = timeZone;
  const tz = /^(?:CRON_TZ|TZ)=(\S+)\s*(.*)$/.exec(text);
  if (tz) {
    const err = checkTimeZone(tz[1]);
    if (err) throw new Error(`provided bad location ${tz[1]}: ${err}`);
    zone = tz[1];
    text = tz[2];
  }
  if (text.startsWith('@every ')) {
    const ms = parseGoDuration(text.slice(7).trim());
    if (ms === undefined) throw new Error(`failed to parse duration ${text}: time: invalid duration "${text.slice(7).trim()}"`);
    const every = Math.max(1000, Math.floor(ms / 1000) * 1000);
    return { next: (after) => Math.floor(after / 1000) * 1000 + every };
  }
  if (text.startsWith('@')) {
    const d = DESCRIPTORS[text];
    if (!d) throw new Error(`unrecognized descriptor: ${text}`);
    text = d;
  }
  const fields = text.split(/\s+/).filter(Boolean);
  if (fields.length !== 5) throw new Error(`expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]`);
  const [minute, hour, dom, month, dow] = fields.map((t, i) => parseField(t, FIELDS[i]));
  // Sunday may be written 7 in neither robfig nor kube; 0-6 only (the range check above refuses 7).
  const dayMatches = (d: Date): boolean => {
    const a = dom.set.has(d.getUTCDate());
    const b = dow.set.has(d.getUTCDay());
    return dom.star || dow.star ? a && b : a || b;
  };
  return {
    next(after: number): number | undefined {
      // Work on the zone's wall clock (a Date read with getUTC*), then map the result back to an instant.
      const wallAfter = after + zoneOffsetMs(zone, after);
      const t = new Date(Math.floor(wallAfter / 60_000) * 60_000 + 60_000);
      const limit = t.getUTCFullYear() + 5;
      wrap: while (t.getUTCFullYear() <= limit) {
        while (!month.set.has(t.getUTCMonth() + 1)) {
          t.setUTCMonth(t.getUTCMonth() + 1, 1);
          t.setUTCHours(0, 0, 0, 0);
          if (t.getUTCMonth() === 0) continue wrap;
        }
        while (!dayMatches(t)) {
          t.setUTCDate(t.getUTCDate() + 1);
          t.setUTCHours(0, 0, 0, 0);
          if (t.getUTCDate() === 1) continue wrap;
        }
        while (!hour.set.has(t.getUTCHours())) {
          t.setUTCHours(t.getUTCHours() + 1, 0, 0, 0);
          if (t.getUTCHours() === 0) continue wrap;
        }
        while (!minute.set.has(t.getUTCMinutes())) {
          t.setUTCMinutes(t.getUTCMinutes() + 1, 0, 0);
          if (t.getUTCMinutes() === 0) continue wrap;
        }
        const wall = t.getTime();
        const guess = wall - zoneOffsetMs(zone, wall);
        const instant = wall - zoneOffsetMs(zone, guess);
        if (instant > after) return instant;
        t.setUTCMinutes(t.getUTCMinutes() + 1, 0, 0);
      }
      return undefined;
    },
  };
}

/** time.Format(RFC3339) of an instant in a zone: "2024-05-01T10:00:00+02:00". */
export function formatRfc3339In(at: number, timeZone: string): string {
  const off = zoneOffsetMs(timeZone, at);
  const wall = new Date(at + off).toISOString().slice(0, 19);
  if (off === 0) return `${wall}Z`;
  const m = Math.abs(off) / 60_000;
  return `${wall}${off < 0 ? '-' : '+'}${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}
