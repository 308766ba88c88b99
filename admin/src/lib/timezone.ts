/**
 * The site's time zone (the `timezone` setting) for date and time pickers and
 * schedule times. It arrives with the session (`/auth/me` carries the site's
 * settings), which loads before any screen: `setSiteTimeZone` records it, and
 * every picker asks `siteTimeZone`. Before sign-in, and for a zone this
 * browser does not know, the browser's own zone is used.
 */
let siteZone: string | null = null;

export function setSiteTimeZone(zone: string | null | undefined): void {
  if (!zone) {
    siteZone = null;
    return;
  }
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    siteZone = zone;
  } catch {
    siteZone = null;
  }
}

export function siteTimeZone(): string {
  return siteZone ?? (Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC');
}

/** An instant as a readable date and time in the site's zone, naming the zone ("12 Mar 2026, 09:00 Europe/Paris"). */
export function formatInSiteZone(iso: string | null | undefined, timeZone = siteTimeZone()): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const text = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(d);
  return `${text} ${timeZone.replaceAll('_', ' ')}`;
}

const partsFormat = (timeZone: string) =>
  new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });

/** Wall-clock parts of an instant in a zone. */
function wallClock(ms: number, timeZone: string) {
  const parts = Object.fromEntries(
    partsFormat(timeZone)
      .formatToParts(new Date(ms))
      .map((p) => [p.type, p.value]),
  );
  return {
    y: Number(parts.year),
    mo: Number(parts.month),
    d: Number(parts.day),
    h: Number(parts.hour),
    mi: Number(parts.minute),
    s: Number(parts.second),
  };
}

/** Offset of the zone from UTC at an instant, in milliseconds. */
function offsetAt(ms: number, timeZone: string): number {
  const w = wallClock(ms, timeZone);
  const asUtc = Date.UTC(w.y, w.mo - 1, w.d, w.h, w.mi, w.s);
  return asUtc - Math.floor(ms / 1000) * 1000;
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** An ISO instant as the value of `<input type="datetime-local">` in the zone (to the minute). */
export function toZonedInput(iso: string | null | undefined, timeZone = siteTimeZone()): string {
  if (!iso) return '';
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return '';
  const w = wallClock(ms, timeZone);
  return `${pad(w.y, 4)}-${pad(w.mo)}-${pad(w.d)}T${pad(w.h)}:${pad(w.mi)}`;
}

/**
 * A `datetime-local` value read in the zone, as an ISO instant in UTC with
 * milliseconds (the form the API stores). Across a DST change the first
 * matching instant wins; a wall time skipped by the change moves forward.
 */
export function fromZonedInput(local: string, timeZone = siteTimeZone()): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(local);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1).map((x) => Number(x ?? 0));
  const guess = Date.UTC(y, mo - 1, d, h, mi, s || 0);
  let ms = guess - offsetAt(guess, timeZone);
  // A second pass settles instants near an offset change.
  ms = guess - offsetAt(ms, timeZone);
  return new Date(ms).toISOString();
}

/** "UTC+02:00"-style label of the zone's offset at an instant. */
export function offsetLabel(iso: string | null, timeZone = siteTimeZone()): string {
  const ms = iso ? Date.parse(iso) : Date.now();
  const off = Math.round(offsetAt(ms, timeZone) / 60000);
  const sign = off < 0 ? '-' : '+';
  const abs = Math.abs(off);
  return `UTC${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}
