/**
 * A use case's refusal, as data: the use case says why, and the API's serializer words it
 * (experience/refusals.ts, reporting/errors.ts `skuRefusal`). A refusal is answered, never thrown.
 */
export interface Refused<Reason> {
  refused: Reason;
}

export function refused<Reason>(reason: Reason): Refused<Reason> {
  return { refused: reason };
}

export function isRefused<Result extends object, Reason>(outcome: Result | Refused<Reason>): outcome is Refused<Reason> {
  return 'refused' in outcome;
}
