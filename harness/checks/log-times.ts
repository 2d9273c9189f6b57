/**
 * Which lines of an agency's log were written during the run: a log proves that journey values are
 * redacted only when it holds this run's requests. A line is of the run when it carries a time
 * inside the run's window, in a form request logs use: epoch seconds or milliseconds (pino, most
 * JSON loggers), ISO 8601 with or without a zone (a time without one may be local or UTC: either
 * counts), or the Common Log Format of Apache and nginx. Each pattern is matched in linear time.
 */

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const EPOCH = /(?<![\d.])(1\d{9}|1\d{12})(\.\d+)?(?!\d)/g;
const ISO = /(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:[.,](\d{1,9}))?\s?(Z|[+-]\d{2}:?\d{2})?/g;
const CLF = /(\d{2})\/([A-Za-z]{3})\/(\d{4}):(\d{2}):(\d{2}):(\d{2}) ([+-])(\d{2})(\d{2})/g;

/** Every time a line may carry, in ms since the epoch (a time without a zone as both local and UTC). */
export function timesIn(line: string): number[] {
  const times: number[] = [];
  for (const [, digits, fraction] of line.matchAll(EPOCH)) {
    times.push(digits!.length === 10 ? (Number(digits) + Number(fraction ?? 0)) * 1000 : Number(digits));
  }
  for (const [, year, month, day, hour, minute, second, fraction, zone] of line.matchAll(ISO)) {
    const fields = [Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second), Number(`0.${fraction ?? 0}`) * 1000] as const;
    const utc = Date.UTC(...fields);
    if (zone === 'Z') times.push(utc);
    else if (zone) times.push(utc - offsetMs(zone[0]!, zone.slice(1).replace(':', '')));
    else times.push(utc, new Date(...fields).getTime());
  }
  for (const [, day, month, year, hour, minute, second, sign, zoneHours, zoneMinutes] of line.matchAll(CLF)) {
    const index = MONTHS.indexOf(month!.toLowerCase());
    if (index >= 0) times.push(Date.UTC(Number(year), index, Number(day), Number(hour), Number(minute), Number(second)) - offsetMs(sign!, `${zoneHours}${zoneMinutes}`));
  }
  return times;
}

function offsetMs(sign: string, hhmm: string): number {
  return (sign === '-' ? -1 : 1) * (Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(2, 4))) * 60_000;
}

/** The lines carrying a time within [from, until]. */
export function linesWithin(lines: readonly string[], from: number, until: number): number {
  return lines.filter((line) => timesIn(line).some((time) => time >= from && time <= until)).length;
}
