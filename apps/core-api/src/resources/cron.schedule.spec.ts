import { describe, expect, it } from 'vitest';
import { cronScheduleError, isKnownTimeZone } from './cron.schedule';

describe('cron schedules (robfig/cron ParseStandard)', () => {
  it.each(['*/5 * * * *', '0 0 * * 0', '15,45 9-17 * jan-jun mon-fri', '0 0 1 */2 *', '@hourly', '@daily', '@every 1h30m', '5 4 * * SUN', '0 0 ? * *', 'TZ=UTC 0 * * * *'])('accepts %s', (s) => {
    expect(cronScheduleError(s)).toBeUndefined();
  });

  it.each([
    ['* * * *', 'expected exactly 5 fields, found 4: [* * * *]'],
    ['not a schedule', 'expected exactly 5 fields, found 3: [not a schedule]'],
    ['60 * * * *', 'end of range (60) above maximum (59): 60'],
    ['* * 0 * *', 'beginning of range (0) below minimum (1): 0'],
    ['5-1 * * * *', 'beginning of range (5) beyond end of range (1): 5-1'],
    ['*/0 * * * *', 'step of range should be a positive number: */0'],
    ['a * * * *', 'failed to parse int from a: strconv.Atoi: parsing "a": invalid syntax'],
    ['1-2-3 * * * *', 'too many hyphens: 1-2-3'],
    ['1/2/3 * * * *', 'too many slashes: 1/2/3'],
    ['@fortnightly', 'unrecognized descriptor: @fortnightly'],
    ['@every 1x', 'failed to parse duration @every 1x: time: invalid duration "1x"'],
    ['TZ=Mars/Base * * * * *', 'provided bad location Mars/Base: unknown time zone Mars/Base'],
  ])('refuses %s with %s', (s, message) => {
    expect(cronScheduleError(s)).toBe(message);
  });

  it('knows IANA zones', () => {
    expect(isKnownTimeZone('Europe/Berlin')).toBe(true);
    expect(isKnownTimeZone('Mars/Base')).toBe(false);
  });
});
