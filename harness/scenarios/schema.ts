/**
 * A scenario file: the world it needs (each journey's pack and country), the steps, and the checks
 * it feeds. Validated with zod when loaded, so a typo names its file and field instead of failing
 * half-way through a run. The step vocabulary is harness/run/steps.ts; harness/README.md explains it.
 */
import { z } from 'zod';
import { STATES } from '../journey-states.js';

export const SANDBOX_SCENARIOS = ['won', 'lost', 'pending', 'failed', 'ineligible', 'already_entered'] as const;

const Name = z.string().regex(/^[a-z][a-z0-9_-]{0,39}$/, 'lower-case letters, digits, - and _, starting with a letter');
const Journey = Name.default('main');
const Country = z.string().regex(/^[A-Z]{2}$/, 'a two-letter country code such as DE');
/** The seeded draw of the pack: `pending` settles as a win, `pending_failed` as a failed delivery. */
const PackOutcome = z.enum(['won', 'lost', 'pending', 'pending_failed', 'failed']);
/**
 * One outcome, or several in order of preference: the journey gets a pack of the first one the
 * promotion's draw gives (a code unlock never draws `lost`). Without it: `lost`, else `won`, for a
 * journey whose outcome does not matter.
 */
const PackOutcomes = z.union([PackOutcome.transform((outcome) => [outcome]), z.array(PackOutcome).min(1).max(5)]).default(['lost', 'won']);
const Seconds = z.number().positive().max(600);

/** Text with `{run}` replaced by the run's id, `{version}` and `{label}` by a version and a word drawn per run (RunFacts.termsDraw), so each run's values are its own. */
const TermsEdit = z.strictObject({
  text: z.string().min(1).max(5000).optional(),
  url: z.string().min(1).max(2000).optional(),
  links: z.array(z.strictObject({ label: z.string().min(1).max(200), url: z.string().min(1).max(2000) })).max(20).optional(),
  version: z.string().min(1).max(100).optional(),
});

export const StepSchema = z.discriminatedUnion('do', [
  /** The callback URL without service_request: the campaign's landing page. */
  z.strictObject({ do: z.literal('open_landing') }),
  /** The preview URL, then each sandbox scenario's link, and the state its page shows. */
  z.strictObject({ do: z.literal('open_previews'), scenarios: z.array(z.enum(SANDBOX_SCENARIOS)).min(1) }),
  /** Sign in as a new collector of the journey's country and scan its pack; ends on the authorize page. */
  z.strictObject({ do: z.literal('scan'), journey: Journey, supply_state: z.boolean().default(false) }),
  /** Continue on the authorize page; `hold` keeps the callback URL without opening it. */
  z.strictObject({ do: z.literal('authorize'), journey: Journey, hold: z.boolean().default(false) }),
  /** Open the held callback as issued, or a rejection probe of it. */
  z.strictObject({ do: z.literal('callback'), journey: Journey, variant: z.enum(['as_issued', 'tampered_state', 'other_browser', 'unsolicited', 'replay']) }),
  /** Read the consent form: checkboxes, terms text, version and links. */
  z.strictObject({ do: z.literal('inspect_consent'), journey: Journey, label: Name.default('first') }),
  /**
   * Tick the named boxes of the consent form (others stay unticked) and send it; `bypass_validation`
   * skips the browser's own `required`.
   */
  z.strictObject({
    do: z.literal('enter'), journey: Journey, accept_terms: z.boolean().default(true), confirm_age: z.boolean().default(true),
    marketing: z.boolean().default(false), bypass_validation: z.boolean().default(false),
  }),
  /**
   * After a refusal, send the entry again the way the page offers: its consent form, or a link or
   * button back to it. `until_entered`: then wait until the service has the entry, which also
   * accepts a page that retries by itself.
   */
  z.strictObject({ do: z.literal('try_again'), journey: Journey, until_entered: z.boolean().default(false), timeout_s: Seconds.default(10) }),
  /**
   * Wait until the page shows something: a kind of page (`shows`: the landing page, the consent
   * form, an error) or a result in a state of spec §4.2 (`state`; `drawn` is the state the
   * journey's pack was drawn to, whichever of its `pack` preferences it is).
   */
  z
    .strictObject({
      do: z.literal('expect'), journey: Journey, shows: z.enum(['landing', 'consent_form', 'error']).optional(),
      state: z.enum([...STATES, 'drawn']).optional(), timeout_s: Seconds.default(10),
    })
    .refine((step) => (step.shows === undefined) !== (step.state === undefined), 'give either "shows" (landing, consent_form, error) or "state"'),
  /** Answer the journey's next experience calls of one kind with an error or a dropped connection. */
  z.strictObject({
    do: z.literal('fault'), journey: Journey, on: z.enum(['exchange', 'entry', 'session_read']),
    status: z.number().int().min(400).max(599).optional(), error: z.string().regex(/^[a-z_]+$/).optional(),
    retry_after: z.number().int().min(0).max(3600).optional(), drop: z.literal(true).optional(), times: z.number().int().min(1).max(10_000).default(1),
  }),
  /** Change the terms of the journey's country now, mid-journey if it is under way. Restored after the run. */
  z.strictObject({ do: z.literal('edit_terms'), journey: Journey, set: TermsEdit }),
  /** Let the journey's pending delivery settle at the next read. */
  z.strictObject({ do: z.literal('settle_delivery'), journey: Journey, outcome: z.enum(['delivered', 'failed']) }),
  /**
   * Keep the pending page open and watch its delivery polls: the schedule for `seconds` or until
   * `polls` polls came; or (`stops`) until `quiet_seconds` after the poll that saw the end, then the
   * page's timers run ahead in virtual time, and the page it ends on.
   */
  z.strictObject({
    do: z.literal('watch_polling'), journey: Journey, mode: z.enum(['schedule', 'stops']), seconds: Seconds, polls: z.number().int().min(1).max(20).default(3),
    quiet_seconds: Seconds.default(9),
  }),
  /** Probe the agency's own entry endpoint (the request its consent form sends): without its CSRF token, forged, then a burst. */
  z.strictObject({ do: z.literal('probe_entry_endpoint'), journey: Journey }),
  z.strictObject({ do: z.literal('wait'), seconds: Seconds }),
  /**
   * Wait until the Retry-After of the journey's last 429 fault has passed, timed from when the
   * service answered it (not from this step): the same path whatever the machine's load.
   */
  z.strictObject({ do: z.literal('wait_retry_after'), journey: Journey }),
  /** Move the emulator's clock: every journey sees it, so only `exclusive` scenarios may. */
  z.strictObject({ do: z.literal('clock'), advance: z.string().regex(/^(\d+[smhd])+$/, 'a duration such as 31m or 1h30m') }),
]);

export type Step = z.infer<typeof StepSchema>;

export const ScenarioSchema = z
  .strictObject({
    id: Name,
    title: z.string().min(1).max(200),
    /** The spec rules it exercises, for the reader. */
    spec: z.string().max(200).optional(),
    /** `sandbox` scenarios run first: their six calls let the brand approve before production journeys start. */
    phase: z.enum(['sandbox', 'production']).default('production'),
    /** Runs alone, nothing in parallel (needed by clock moves). */
    exclusive: z.boolean().default(false),
    world: z
      .strictObject({ journeys: z.record(Name, z.strictObject({ pack: PackOutcomes, country: Country.default('DE') })).default({}) })
      .default({ journeys: {} }),
    steps: z.array(StepSchema).min(1).max(100),
    /** The check ids this scenario gives evidence for; `--only` runs the scenarios feeding the chosen checks. */
    feeds: z.array(z.string().regex(/^[a-z0-9_]+(\.[a-z0-9_]+)+$/)).min(1),
  })
  .superRefine((scenario, issues) => {
    scenario.steps.forEach((step, index) => {
      if (step.do === 'clock' && !scenario.exclusive) issues.addIssue({ code: 'custom', path: ['steps', index], message: 'a clock move changes every journey: set "exclusive": true' });
      if (step.do === 'wait_retry_after' && !scenario.steps.slice(0, index).some((earlier) => earlier.do === 'fault' && earlier.status === 429 && earlier.retry_after !== undefined && earlier.journey === step.journey)) {
        issues.addIssue({ code: 'custom', path: ['steps', index], message: 'wait_retry_after needs an earlier "fault" step of the journey with "status": 429 and "retry_after"' });
      }
      if ('journey' in step && !scenario.world.journeys[step.journey]) {
        issues.addIssue({ code: 'custom', path: ['steps', index, 'journey'], message: `journey "${step.journey}" is not declared in world.journeys` });
      }
    });
  });

export type Scenario = z.infer<typeof ScenarioSchema>;
