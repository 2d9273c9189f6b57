/** What the CLI prints: the start summary, shell exports and the clock. */
import { type ClockState, formatOffset } from '../clock.js';
import type { EnvValues } from '../use-cases/control/env-values.js';
import { CLI, type DataPaths, dataFlag } from './paths.js';

export type Env = Pick<
  EnvValues,
  'base_url' | 'dashboard_url' | 'sandbox_key' | 'production_key' | 'reporting_token' | 'brand_slug' | 'promotion' | 'promotions' | 'packs' | 'test_packs' | 'preview_packs' | 'recalled_packs'
>;

const OUTCOMES = ['won', 'lost', 'pending', 'failed'];

/**
 * Everything an agency needs to point its backend at this emulator; secrets included, as that is
 * the point. `localUrl` is where it listens, shown when its public URL is another.
 */
export function startSummary(env: Env, pid: number, dir: string, localUrl = env.base_url): string {
  const row = (label: string, value: string | null) => `  ${label.padEnd(17)}${value ?? '(none in this fixture)'}`;
  const codes = (list: string[]) => (list.length ? list.join('  ') : '(none)');
  const outcomes = [...new Set(env.packs.map((pack) => pack.outcome))].sort((a, b) => OUTCOMES.indexOf(a) - OUTCOMES.indexOf(b));
  const packRows = outcomes.map((outcome) => row(`  ${outcome}`, codes(env.packs.filter((pack) => pack.outcome === outcome).map((pack) => pack.code))));
  const data = dataFlag(dir);
  const others = env.promotions.filter((promotion) => promotion.id !== env.promotion.id).map((promotion) => `${promotion.slug} (${promotion.mechanic})`);
  return [
    `[emulator] running at ${localUrl} (pid ${pid}), data in ${dir}`,
    '',
    row('Base URL', env.base_url),
    ...(localUrl === env.base_url ? [] : [row('Listens on', `${localUrl} (the base URL is the public URL; the CLI calls here)`)]),
    row('Dashboard', env.dashboard_url),
    row('Promotion', `${env.promotion.name} (${env.promotion.slug}, ${env.promotion.mechanic}), the default`),
    row('Sandbox key', env.sandbox_key),
    row('Production key', env.production_key),
    row('Reporting token', env.reporting_token),
    row('Brand slug', env.brand_slug),
    '',
    '  Known-outcome packs: production packs whose draw is known; they reach your agency, each enters once',
    ...packRows,
    '  Packs that never reach your agency (the service\'s hosted page runs them)',
    row('  Tester packs', codes(env.test_packs)),
    row('  Preview packs', codes(env.preview_packs)),
    row('  Recalled packs', codes(env.recalled_packs)),
    ...(others.length ? ['', `  Other promotions: ${others.join(', ')}`, `  Their keys and packs: ${CLI} env --json --promotion SLUG${data}; console commands take --promotion SLUG`] : []),
    '',
    `  Export these to your shell with: eval "$(${CLI} env${data})"`,
    `  Logs: ${CLI} logs${data}    Stop: ${CLI} stop${data}`,
    '',
  ].join('\n');
}

export const ENV_VARIABLES = {
  PROMO_BASE_URL: 'base_url',
  PROMO_SANDBOX_KEY: 'sandbox_key',
  PROMO_PRODUCTION_KEY: 'production_key',
  PROMO_REPORTING_TOKEN: 'reporting_token',
  PROMO_BRAND_SLUG: 'brand_slug',
} as const;

/** The exports, after a comment naming the promotion they are for (a shell skips it). */
/** An emulator reachable from elsewhere asks every caller for the token (control/guard.ts): what start says, and where a made one is kept. */
export function tokenNote(exposure: string, made: boolean, paths: DataPaths): string {
  const which = made ? `a token made for this run, kept in ${paths.instance}` : 'the token it was given';
  return `[emulator] ${exposure}: the control plane asks every caller, on this machine too, for ${which}, and the dashboard, which a browser opens without it, is closed. This CLI sends it; \`${CLI} env${dataFlag(paths.dir)}\` prints it as HARNESS_CONTROL_TOKEN for the harness.`;
}

export function envExports(env: Pick<EnvValues, (typeof ENV_VARIABLES)[keyof typeof ENV_VARIABLES] | 'promotion'>, named = false): string {
  const { id, slug, name } = env.promotion;
  // A name is fixture text: no control character may end the comment and start a command.
  const which = `# promotion #${id} ${slug} (${name.replace(/[\u0000-\u001f\u007f]/g, ' ')})${named ? '' : ', the default: name another with --promotion'}\n`;
  return which + Object.entries(ENV_VARIABLES).map(([variable, field]) => `export ${variable}=${shellQuote(env[field] ?? '')}\n`).join('');
}

/** Single quotes for POSIX shells: nothing inside is expanded; a quote is closed, escaped and reopened. */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

export function clockLine(state: Required<ClockState> & { now: string }): string {
  if (state.mode === 'frozen') return `[emulator] clock frozen at ${state.now}`;
  if (state.mode === 'offset') return `[emulator] clock runs ${formatOffset(state.offsetMs)} from system time, now ${state.now}`;
  return `[emulator] clock follows system time, now ${state.now}`;
}

/**
 * A reader that stops early (`emulator env | head -1`) closes the pipe: the command then ends
 * quietly, as a writer to a pipe should, instead of with an unhandled EPIPE. A server in the
 * foreground keeps serving: its output is a courtesy, its work is elsewhere.
 */
export function endOnClosedOutput(when: 'exit' | 'keep-running' = 'exit'): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.removeAllListeners('error');
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
      if (when === 'exit') process.exit(process.exitCode ?? 0);
    });
  }
}

/** A line for the user on stdout: the CLI's output, as opposed to the emulator's log. */
export function say(text: string): void {
  process.stdout.write(`${text}\n`);
}

/** A command's one-line failure, on stderr. */
export function sayError(text: string): void {
  process.stderr.write(`${text}\n`);
}
