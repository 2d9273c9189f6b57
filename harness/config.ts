/**
 * `harness.config.json`: what the command line does not say. Every field is optional; flags win
 * over the file. Paths in the file are relative to the file. harness/README.md documents each field.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import { HarnessError } from './errors.js';

export const DEFAULT_EMULATOR = 'http://127.0.0.1:4010';
export const DEFAULT_OUT = 'harness-report';

const HttpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });
const Impact = z.enum(['critical', 'serious', 'moderate', 'minor']);

export const ConfigSchema = z.strictObject({
  callback: HttpUrl.optional(),
  preview: HttpUrl.optional(),
  emulator: HttpUrl.optional(),
  /** The emulator's control token, when it runs off loopback with --control-token (flag and HARNESS_CONTROL_TOKEN win). */
  control_token: z.string().min(1).optional(),
  /** More scenario folders, after the built-in ones. */
  scenarios: z.array(z.string().min(1)).default([]),
  /** The agency's own entry endpoint, e.g. {"path": "/entry"}: the CSRF and rate-limit probes need it. */
  entry_endpoint: z.strictObject({ path: z.string().startsWith('/'), max_attempts: z.number().int().min(2).max(200).default(30) }).optional(),
  /** The agency's log file, searched for service_request, service_code and state values. */
  agency_log: z.string().min(1).optional(),
  /** Origins besides the agency's and the service's that its pages may load from (none by default: spec §4.3). */
  first_party_origins: z.array(HttpUrl).default([]),
  /** Scenarios run at once, each in its own browser contexts. */
  concurrency: z.number().int().min(1).max(16).default(6),
  /** axe-core violations of these impacts fail `a11y.axe`; any other violation is a warning. */
  a11y: z.strictObject({ fail_on: z.array(Impact).default(['critical']) }).default({ fail_on: ['critical'] }),
  /** Keep a Playwright trace of the scenarios behind failed checks. */
  trace: z.enum(['on-failure', 'off']).default('on-failure'),
  /** DOM markers the harness reads (the reference agency's README documents them); override for your own pages. */
  markers: z
    .strictObject({
      main: z.string().default('main'),
      entry_form: z.string().default('form[data-entry-form]'),
      terms_text: z.string().default('[data-terms-text]'),
      terms_version: z.string().default('[data-terms-version]'),
      preview_link: z.string().default('a[data-scenario="{scenario}"]'),
    })
    .default({ main: 'main', entry_form: 'form[data-entry-form]', terms_text: '[data-terms-text]', terms_version: '[data-terms-version]', preview_link: 'a[data-scenario="{scenario}"]' }),
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
