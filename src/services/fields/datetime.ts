/**
 * datetime field values (spec 2, "datetime rules"): writes must carry `Z` or an explicit offset;
 * accepted input is stored in UTC as `YYYY-MM-DDTHH:MM:SS.mmmZ`.
 *
 * Accepted: `2026-01-02T03:04:05Z`, `2026-01-02T03:04Z` (seconds optional),
 * `2026-01-02T03:04:05.123456+02:00`, offsets as `+HH:MM`, `+HHMM` or `+HH`, lowercase `t`/`z`
 * (RFC 3339 allows them). Rejected: no offset (the instant would depend on the server's zone),
 * date-only values, impossible calendar dates (2026-02-30), hour 24 and leap second 60.
 * Fractional seconds of any length are truncated to milliseconds, never rounded, so a value
 * just before midnight never moves to the next day.
 */

const ISO_DATETIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)$/;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysInMonth(year: number, month: number): number {
  return month === 2 && isLeapYear(year) ? 29 : (DAYS_IN_MONTH[month - 1] ?? 0);
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** The stored shape itself: most values read back (imports, revisions) already have it. */
const STORED_SHAPE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Normalised UTC string, or null when `value` is not an ISO 8601 date-time with a zone. */
export function normalizeDatetime(value: string): string | null {
  // A value in the stored shape is its own normal form when it names a real instant (the round trip says so).
  if (STORED_SHAPE.test(value)) {
    const at = new Date(value);
    if (!Number.isNaN(at.getTime()) && at.toISOString() === value) return value;
  }
  const m = ISO_DATETIME.exec(value);
  if (!m) return null;
  const [, y, mo, d, h, mi, s, frac, zulu, sign, oh, om] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = s === undefined ? 0 : Number(s);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  const offsetHours = oh === undefined ? 0 : Number(oh);
  const offsetMinutes = om === undefined ? 0 : Number(om);
  if (offsetHours > 23 || offsetMinutes > 59) return null;
  const ms = frac === undefined ? 0 : Number(frac.slice(0, 3).padEnd(3, '0'));

  // setUTCFullYear, because Date.UTC maps years 0–99 to 1900–1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, ms);
  const offset = zulu ? 0 : (sign === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes);
  const utc = new Date(date.getTime() - offset * 60_000);
  const iso = utc.toISOString();
  // An offset can push year 0000 or 9999 out of the four-digit range the stored shape allows.
  return /^\d{4}-/.test(iso) ? iso : null;
}
