import { describe, expect, it } from 'vitest';
import { Quantity, QUANTITY_FORMAT_ERROR } from './quantity';

const canonical = (s: string | number): string => Quantity.parse(s).toString();

describe('Quantity', () => {
  it('writes kube\'s canonical form', () => {
    // Cases from apimachinery's quantity_test.go (TestQuantityParse / TestQuantityString).
    expect(canonical('0')).toBe('0');
    expect(canonical('0.5')).toBe('500m');
    expect(canonical('1')).toBe('1');
    expect(canonical('1000m')).toBe('1');
    expect(canonical('1500m')).toBe('1500m');
    expect(canonical('1.5')).toBe('1500m');
    expect(canonical('1000')).toBe('1k');
    expect(canonical('1200')).toBe('1200');
    expect(canonical('2000000')).toBe('2M');
    expect(canonical('1Gi')).toBe('1Gi');
    expect(canonical('1.5Gi')).toBe('1536Mi');
    expect(canonical('1024Mi')).toBe('1Gi');
    expect(canonical('512Ki')).toBe('512Ki');
    expect(canonical('0.5Ki')).toBe('512');
    expect(canonical('100Mi')).toBe('100Mi');
    expect(canonical('1e3')).toBe('1e3');
    expect(canonical('12e2')).toBe('1200');
    expect(canonical('1E6')).toBe('1e6');
    expect(canonical('-1.5')).toBe('-1500m');
    expect(canonical('.5')).toBe('500m');
    expect(canonical('5.')).toBe('5');
    expect(canonical(2)).toBe('2');
    expect(canonical(0.25)).toBe('250m');
  });

  it('rounds values below one nano up', () => {
    expect(canonical('1.1n')).toBe('2n');
    expect(canonical('0.0000000001')).toBe('1n');
    expect(canonical('-0.0000000001')).toBe('-1n');
  });

  it('refuses what kube refuses with its message', () => {
    for (const bad of ['', 'abc', '1.2.3', '1Kb', '1 Gi', 'Gi', '1e', '--1', '1ki']) expect(Quantity.tryParse(bad)).toBeUndefined();
    expect(() => Quantity.parse('x')).toThrow(QUANTITY_FORMAT_ERROR);
  });

  it('compares and adds exactly across formats', () => {
    expect(Quantity.parse('1').cmp(Quantity.parse('1000m'))).toBe(0);
    expect(Quantity.parse('500m').cmp(Quantity.parse('1'))).toBe(-1);
    expect(Quantity.parse('1Gi').cmp(Quantity.parse('1G'))).toBe(1);
    expect(Quantity.parse('0.1').add(Quantity.parse('0.2')).toString()).toBe('300m');
    expect(Quantity.parse('1Gi').add(Quantity.parse('1Gi')).toString()).toBe('2Gi');
    expect(Quantity.zero.add(Quantity.parse('128Mi')).toString()).toBe('128Mi');
    expect(Quantity.parse('3').sub(Quantity.parse('1')).toString()).toBe('2');
    expect(Quantity.parse('100m').mul(3).toString()).toBe('300m');
    expect(Quantity.parse('1.5').value()).toBe(2);
    expect(Quantity.parse('1.5').milliValue()).toBe(1500);
  });
});
