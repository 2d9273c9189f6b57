/** Every check of the harness, in checklist order. Ids are stable: reports and `--only` use them. */
import { ADVISORY_CHECKS } from './advisory.js';
import { BEHAVIOUR_CHECKS } from './behaviour.js';
import { CALLBACK_CHECKS } from './callback.js';
import { CONSENT_CHECKS } from './consent.js';
import { ENDPOINT_CHECKS } from './endpoint.js';
import { JOURNEY_CHECKS } from './journey.js';
import { PKCE_CHECKS } from './pkce.js';
import { SECRET_CHECKS } from './secrets.js';
import { type Check, GROUPS } from './types.js';

const ALL: Check[] = [...JOURNEY_CHECKS, ...CALLBACK_CHECKS, ...PKCE_CHECKS, ...SECRET_CHECKS, ...CONSENT_CHECKS, ...BEHAVIOUR_CHECKS, ...ENDPOINT_CHECKS, ...ADVISORY_CHECKS];
const ORDER = Object.keys(GROUPS);

export const CHECKS: readonly Check[] = [...ALL].sort((a, b) => ORDER.indexOf(a.group) - ORDER.indexOf(b.group));

export const CHECK_IDS: ReadonlySet<string> = new Set(CHECKS.map((check) => check.id));

/** The check of an id, for what a report tells about it besides its verdict (its guidance). */
export const CHECK_BY_ID: ReadonlyMap<string, Check> = new Map(CHECKS.map((check) => [check.id, check]));
