import { describe, expect, it } from 'vitest';
import { formatRfc3339In, parseCronSchedule } from './cron.schedule';

describe('parseCronSchedule', () => {
  it('finds the next minute, hour and weekday activations', () => {
    const at = Date.parse('2024-05-01T10:00:30Z');
    expect(new Date(parseCronSchedule('* * * * *').next(at) as number).toISOString()).toBe('2024-05-01T10:01:00.000Z');
    expect(new Date(parseCronSchedule('*/15 9-17 * * mon-fri').next(at) as number).toISOString()).toBe('2024-05-01T10:15:00.000Z');
    expect(new Date(parseCronSchedule('@daily').next(at) as number).toISOString()).toBe('2024-05-02T00:00:00.000Z');
  });

  it('evaluates in the time zone', () => {
    const at = Date.parse('2024-05-01T10:00:00Z');
    expect(new Date(parseCronSchedule('0 9 * * *', 'Europe/Berlin').next(at) as number).toISOString()).toBe('2024-05-02T07:00:00.000Z');
    expect(formatRfc3339In(Date.parse('2024-05-02T07:00:00Z'), 'Europe/Berlin')).toBe('2024-05-02T09:00:00+02:00');
  });

  it('has no activation for February 31st and refuses bad fields as robfig', () => {
    expect(parseCronSchedule('59 23 31 2 *').next(Date.now())).toBeUndefined();
    expect(() => parseCronSchedule('* * * *')).toThrow('expected exactly 5 fields, found 4: [* * * *]');
    expect(() => parseCronSchedule('61 * * * *')).toThrow('end of range (61) above maximum (59): 61');
  });
});
