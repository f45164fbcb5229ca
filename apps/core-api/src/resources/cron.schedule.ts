/**
 * CronJob schedules as kube parses them: robfig/cron/v3's ParseStandard (5 fields — minute, hour, day of month,
 * month, day of week — or a descriptor such as @hourly / @every 1h30m, optionally after TZ= or CRON_TZ=), with its
 * error messages, which kube returns verbatim ("spec.schedule: Invalid value: "…": <message>").
 */

interface Bounds {
  min: number;
  max: number;
  names?: Readonly<Record<string, number>>;
}

const MONTHS: Record<string, number> = { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 };
const DAYS: Record<string, number> = { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 };

const FIELDS: readonly Bounds[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: MONTHS },
  { min: 0, max: 6, names: DAYS },
];

const DESCRIPTORS: readonly string[] = ['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly'];

class CronError extends Error {}

/** strconv.Atoi's accepted syntax: optional sign and decimal digits. */
function atoi(expr: string): number {
  if (!/^[+-]?\d+$/.test(expr)) throw new CronError(`failed to parse int from ${expr}: strconv.Atoi: parsing ${JSON.stringify(expr)}: invalid syntax`);
  const n = Number(expr);
  if (!Number.isSafeInteger(n) || Math.abs(n) > 2 ** 63 - 1) throw new CronError(`failed to parse int from ${expr}: strconv.Atoi: parsing ${JSON.stringify(expr)}: value out of range`);
  return n;
}

function mustParseInt(expr: string): number {
  const n = atoi(expr);
  if (n < 0) throw new CronError(`negative number (${n}) not allowed: ${expr}`);
  return n;
}

function parseIntOrName(expr: string, names: Bounds['names']): number {
  const named = names?.[expr.toLowerCase()];
  return named ?? mustParseInt(expr);
}

/** getRange: "*", "?", "a", "a-b", each optionally "/step". */
function checkRange(expr: string, r: Bounds): void {
  const rangeAndStep = expr.split('/');
  const lowAndHigh = rangeAndStep[0].split('-');
  let start: number;
  let end: number;
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    start = r.min;
    end = r.max;
  } else {
    start = parseIntOrName(lowAndHigh[0], r.names);
    if (lowAndHigh.length === 1) end = start;
    else if (lowAndHigh.length === 2) end = parseIntOrName(lowAndHigh[1], r.names);
    else throw new CronError(`too many hyphens: ${expr}`);
  }
  let step = 1;
  if (rangeAndStep.length === 2) {
    step = mustParseInt(rangeAndStep[1]);
    // "N/step" means "N-max/step".
    if (lowAndHigh.length === 1) end = r.max;
  } else if (rangeAndStep.length > 2) throw new CronError(`too many slashes: ${expr}`);
  if (start < r.min) throw new CronError(`beginning of range (${start}) below minimum (${r.min}): ${expr}`);
  if (end > r.max) throw new CronError(`end of range (${end}) above maximum (${r.max}): ${expr}`);
  if (start > end) throw new CronError(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
  if (step === 0) throw new CronError(`step of range should be a positive number: ${expr}`);
}

const GO_DURATION = /^[+-]?((\d+(\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h))+$/;

function checkDescriptor(spec: string): void {
  if (DESCRIPTORS.includes(spec)) return;
  const every = '@every ';
  if (spec.startsWith(every)) {
    const d = spec.slice(every.length);
    if (d === '0' || GO_DURATION.test(d)) return;
    throw new CronError(`failed to parse duration ${spec}: time: invalid duration ${JSON.stringify(d)}`);
  }
  throw new CronError(`unrecognized descriptor: ${spec}`);
}

/** Go's `%s` of a []string: "[a b c]". */
const goFields = (fields: readonly string[]): string => `[${fields.join(' ')}]`;

/** A time zone name Go's time.LoadLocation knows (the IANA database, as Node's Intl has it, plus UTC/Local). */
export function isKnownTimeZone(name: string): boolean {
  if (name === '' || name === 'UTC' || name === 'Local') return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** The parse error kube reports for a schedule, or undefined when cron.ParseStandard accepts it. */
export function cronScheduleError(schedule: string): string | undefined {
  try {
    let spec = schedule;
    if (spec.length === 0) throw new CronError('empty spec string');
    if (spec.startsWith('TZ=') || spec.startsWith('CRON_TZ=')) {
      const space = spec.indexOf(' ');
      const eq = spec.indexOf('=');
      // Go slices spec[eq+1:i] with i = -1 when there is no space: the recovered panic kube reports.
      if (space < 0) throw new CronError(`recovered from panic: runtime error: slice bounds out of range [:-1]`);
      const zone = spec.slice(eq + 1, space);
      if (!isKnownTimeZone(zone)) throw new CronError(`provided bad location ${zone}: unknown time zone ${zone}`);
      spec = spec.slice(space).trim();
    }
    if (spec.startsWith('@')) {
      checkDescriptor(spec);
      return undefined;
    }
    const fields = spec.split(/\s+/).filter(Boolean);
    if (fields.length !== FIELDS.length) throw new CronError(`expected exactly ${FIELDS.length} fields, found ${fields.length}: ${goFields(fields)}`);
    fields.forEach((field, i) => {
      for (const expr of field.split(',').filter(Boolean)) checkRange(expr, FIELDS[i]);
    });
    return undefined;
  } catch (err) {
    if (err instanceof CronError) return err.message;
    throw err;
  }
}
