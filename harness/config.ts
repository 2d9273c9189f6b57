/**
 * `harness.config.json`: what the command line does not say. Every field is optional; flags win
 * over the file. Paths in the file are relative to the file. harness/README.md documents each field.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import { HarnessError } from './errors.js';
import { PAGES, STATES } from './journey-states.js';
import { CATEGORIES, type Category } from './vocabulary.js';

export const DEFAULT_EMULATOR = 'http://127.0.0.1:4010';

/**
 * The emulator when neither --emulator nor the config names it: PROMO_BASE_URL (what
 * `eval "$(npx emulator env)"` exports), else 127.0.0.1 on EMULATOR_PORT (what `emulator start` reads), else 4010.
 */
export function emulatorFromEnv(env: NodeJS.ProcessEnv = process.env): string {
  if (env.PROMO_BASE_URL) return env.PROMO_BASE_URL;
  if (env.EMULATOR_PORT === undefined || env.EMULATOR_PORT === '') return DEFAULT_EMULATOR;
  if (!/^\d{1,5}$/.test(env.EMULATOR_PORT)) throw new HarnessError(`EMULATOR_PORT ${env.EMULATOR_PORT} is not a port number`);
  return `http://127.0.0.1:${env.EMULATOR_PORT}`;
}
export const DEFAULT_OUT = 'harness-report';

const HttpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });
const Impact = z.enum(['critical', 'serious', 'moderate', 'minor']);
const TraceModeSchema = z.enum(['on-failure', 'on-failure-with-snapshots', 'off']);
export type TraceMode = z.infer<typeof TraceModeSchema>;

const Selector = z.string().min(1).max(500);

const Markers = z.strictObject({
  page: Selector.default('main[data-page="{name}"]'),
  state: Selector.default('main[data-entry-state="{name}"]'),
  pages: z.partialRecord(z.enum(PAGES), Selector).default({}),
  states: z.partialRecord(z.enum(STATES), Selector).default({}),
  /** The consent form; without it, the form (or section) holding the box that accepts the terms. */
  entry_form: Selector.default('form[data-entry-form]'),
  /** The terms text and version; without them, the page's text. */
  terms_text: Selector.default('[data-terms-text]'),
  terms_version: Selector.default('[data-terms-version]'),
  /** A preview scenario's link; without it, a link or button naming the scenario. */
  preview_link: Selector.default('a[data-scenario="{scenario}"]'),
  /** What opens the consent form when the page holds it hidden (a dialog, a disclosure, a drawer); without it, what names the form's container, else the one button of the main content. */
  consent_open: Selector.optional(),
  /** The button of each step page before the consent form (an age question), when a step has several; without it, the one form of the main content and its one button. */
  consent_step: Selector.optional(),
  /** The way back to the entry after a 429; without it, a link to the consent form, the only action, or one named like "try again". */
  try_again: Selector.optional(),
  /** The consent form's boxes; without them, found by what the page requires, the minimum age and the vocabulary. */
  consent_boxes: z.strictObject({ terms: Selector.optional(), age: Selector.optional(), marketing: Selector.optional() }).default({}),
});

/** A vocabulary entry: a regular expression, matched case-insensitively at the start of a word. */
const Word = z.string().min(1).max(200).refine((word) => {
  try {
    new RegExp(word, 'iu');
    return true;
  } catch {
    return false;
  }
}, 'not a valid regular expression');

/** More words for the harness/vocabulary.ts categories, added to the built-in ones. */
const VocabularySchema = z.strictObject(Object.fromEntries(CATEGORIES.map((category) => [category, z.array(Word).optional()])) as Record<Category, z.ZodOptional<z.ZodArray<typeof Word>>>);

export const ConfigSchema = z.strictObject({
  callback: HttpUrl.optional(),
  preview: HttpUrl.optional(),
  emulator: HttpUrl.optional(),
  /** The promotion to verify, by id or slug (the flag wins); without it, found from the callback URL. */
  promotion: z.union([z.string().min(1).max(64), z.number().int().positive().transform(String)]).optional(),
  /** The emulator's control token, when it runs off loopback with --control-token (flag and HARNESS_CONTROL_TOKEN win). */
  control_token: z.string().min(1).optional(),
  /** More scenario folders, after the built-in ones; a scenario with a built-in one's id replaces it. */
  scenarios: z.array(z.string().min(1)).default([]),
  /** Ids of scenarios not to run (built-in or your own); the checks only they feed become inconclusive. */
  disable_scenarios: z.array(z.string().min(1)).default([]),
  /**
   * The agency's own entry endpoint. The harness finds it by catching the request the consent form
   * sends; `path` picks it when the page sends several. `max_attempts`: the rate-limit probe's burst.
   */
  entry_endpoint: z
    .strictObject({ path: z.string().startsWith('/').optional(), max_attempts: z.number().int().min(2).max(200).default(30) })
    .default({ max_attempts: 30 }),
  /** The agency's log file, searched for service_request, service_code and state values. */
  agency_log: z.string().min(1).optional(),
  /** Origins besides the agency's and the service's that its pages may load from (none by default: spec §4.3). */
  first_party_origins: z.array(HttpUrl).default([]),
  /** Scenarios run at once, each in its own browser contexts (most of them wait on timers, not the CPU). */
  concurrency: z.number().int().min(1).max(16).default(10),
  /** axe-core violations of these impacts fail `a11y.axe`; any other violation is a warning. */
  a11y: z.strictObject({ fail_on: z.array(Impact).default(['critical']) }).default({ fail_on: ['critical'] }),
  /** Keep a Playwright trace of the scenarios behind failed checks; `on-failure-with-snapshots` adds the DOM at each action. */
  trace: TraceModeSchema.default('on-failure'),
  /**
   * Where the agency's pages show what they are. Hints only: the harness also recognises the
   * consent form by its boxes and a result by what the service answered. `page` and `state` are
   * selectors with `{name}` for a name; `pages` and `states` give your names (a plain word goes into
   * the template) or a selector of their own (anything else, e.g. `text=/Gewonnen/`).
   */
  markers: Markers.default(Markers.parse({})),
  /** Words in your language the built-in vocabulary lacks, by category (harness/vocabulary.ts CATEGORIES). */
  vocabulary: VocabularySchema.default({}),
});

export type Config = z.infer<typeof ConfigSchema>;

export const DEFAULT_CONFIG = 'harness.config.json';

/** The file given, else ./harness.config.json when there is one, else the defaults. */
export function loadConfig(given: string | undefined): { config: Config; base: string } {
  const file = given ?? (existsSync(DEFAULT_CONFIG) ? DEFAULT_CONFIG : undefined);
  if (!file) return { config: ConfigSchema.parse({}), base: process.cwd() };
  const path = resolve(file);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : `not valid JSON: ${(error as Error).message}`;
    throw new HarnessError(`the config ${path}: ${why}`);
  }
  const parsed = ConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new HarnessError(`the config ${path}: ${issue.path.join('.') || '(file)'}: ${issue.message}`);
  }
  return { config: parsed.data, base: dirname(path) };
}
