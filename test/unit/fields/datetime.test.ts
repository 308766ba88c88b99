import { describe, expect, it } from 'vitest';
import { normalizeDatetime } from '../../../src/services/fields/index.js';

describe('normalizeDatetime', () => {
  it.each([
    ['2026-01-02T03:04:05Z', '2026-01-02T03:04:05.000Z'],
    ['2026-01-02T03:04:05.678Z', '2026-01-02T03:04:05.678Z'],
    ['2026-01-02T03:04Z', '2026-01-02T03:04:00.000Z'],
    ['2026-01-02t03:04:05z', '2026-01-02T03:04:05.000Z'],
    ['2026-01-02T05:04:05+02:00', '2026-01-02T03:04:05.000Z'],
    ['2026-01-02T05:04:05+0200', '2026-01-02T03:04:05.000Z'],
    ['2026-01-02T05:04:05+02', '2026-01-02T03:04:05.000Z'],
    ['2026-01-01T22:00:00-05:30', '2026-01-02T03:30:00.000Z'],
    ['2026-01-02T03:04:05-00:00', '2026-01-02T03:04:05.000Z'],
    ['2026-01-02T03:04:05.1Z', '2026-01-02T03:04:05.100Z'],
    ['2026-01-02T03:04:05.12Z', '2026-01-02T03:04:05.120Z'],
    ['2026-01-02T03:04:05,5Z', '2026-01-02T03:04:05.500Z'],
  ])('normalises %s to %s', (input, expected) => {
    expect(normalizeDatetime(input)).toBe(expected);
  });

  it('truncates (never rounds) fractional seconds beyond milliseconds', () => {
    expect(normalizeDatetime('2026-01-02T03:04:05.123999Z')).toBe('2026-01-02T03:04:05.123Z');
    expect(normalizeDatetime('2026-12-31T23:59:59.9999999Z')).toBe('2026-12-31T23:59:59.999Z');
  });

  it('crosses day, month and year boundaries when converting offsets', () => {
    expect(normalizeDatetime('2027-01-01T01:00:00+02:00')).toBe('2026-12-31T23:00:00.000Z');
    expect(normalizeDatetime('2026-02-28T23:30:00-01:00')).toBe('2026-03-01T00:30:00.000Z');
  });

  it('accepts 29 February only in leap years', () => {
    expect(normalizeDatetime('2024-02-29T00:00:00Z')).toBe('2024-02-29T00:00:00.000Z');
    expect(normalizeDatetime('2000-02-29T00:00:00Z')).toBe('2000-02-29T00:00:00.000Z');
    expect(normalizeDatetime('2026-02-29T00:00:00Z')).toBeNull();
    expect(normalizeDatetime('1900-02-29T00:00:00Z')).toBeNull();
  });

  it('keeps years below 100 as written', () => {
    expect(normalizeDatetime('0050-06-01T00:00:00Z')).toBe('0050-06-01T00:00:00.000Z');
  });

  it.each([
    ['2026-01-02T03:04:05', 'no offset'],
    ['2026-01-02T03:04', 'no offset, no seconds'],
    ['2026-01-02', 'date only'],
    ['2026-01-02Z', 'date only with Z'],
    ['2026-02-30T00:00:00Z', 'impossible date'],
    ['2026-04-31T00:00:00Z', '31 April'],
    ['2026-13-01T00:00:00Z', 'month 13'],
    ['2026-00-10T00:00:00Z', 'month 0'],
    ['2026-01-00T00:00:00Z', 'day 0'],
    ['2026-01-02T24:00:00Z', 'hour 24'],
    ['2026-01-02T23:60:00Z', 'minute 60'],
    ['2026-12-31T23:59:60Z', 'leap second'],
    ['2026-01-02T03:04:05+24:00', 'offset hour 24'],
    ['2026-01-02T03:04:05+02:60', 'offset minute 60'],
    ['2026-01-02 03:04:05Z', 'space separator'],
    ['26-01-02T03:04:05Z', 'two-digit year'],
    ['2026-1-2T3:4:5Z', 'unpadded parts'],
    ['2026-01-02T03:04:05.Z', 'empty fraction'],
    ['2026-01-02T03:04:05ZZ', 'trailing garbage'],
    [' 2026-01-02T03:04:05Z', 'leading space'],
    ['yesterday', 'words'],
    ['1767323045', 'epoch seconds'],
    ['', 'empty'],
    ['0000-01-01T00:00:00+01:00', 'offset pushes the year below 0000'],
  ])('rejects %j (%s)', (input) => {
    expect(normalizeDatetime(input)).toBeNull();
  });
});
