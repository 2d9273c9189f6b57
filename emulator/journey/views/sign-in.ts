/** The simulated collector sign-in page: pick an account or create one. */
import type { Collector } from '../../store/collectors.js';
import type { ScannedPack } from '../../use-cases/journey/sign-in.js';
import { type Html, html } from '../../pages/html.js';
import { type PageContext, journeyPage } from './shell.js';

const COUNTRIES: Array<[string, string]> = [
  ['DE', 'Germany'], ['AT', 'Austria'], ['CH', 'Switzerland'], ['FR', 'France'], ['IT', 'Italy'], ['NL', 'Netherlands'],
  ['BE', 'Belgium'], ['PL', 'Poland'], ['ES', 'Spain'], ['GB', 'United Kingdom'], ['US', 'United States'],
];

export interface SignInForm {
  next: string;
  /** The pack whose scan brought the browser here. */
  scanned?: ScannedPack;
  email?: string;
  country?: string;
  city?: string;
  problems?: Record<string, string>;
}

export function signInPage(page: PageContext, collectors: Collector[], form: SignInForm): Html {
  const csrf = page.form.field();
  const problems = form.problems ?? {};
  const invalid = (name: string) => (problems[name] ? html` aria-invalid="true" aria-describedby="${name}-problem"` : '');
  const problem = (name: string) => (problems[name] ? html`<p class="warning" id="${name}-problem">${problems[name]}</p>` : '');
  const accounts = collectors.map(
    (collector) => html`<li><form method="post" action="/sign-in">${csrf}<input type="hidden" name="next" value="${form.next}">
      <input type="hidden" name="collector_id" value="${collector.id}">
      <button type="submit" class="secondary">Sign in as ${collector.email} (${collector.country ?? 'no country'}${collector.city ? `, ${collector.city}` : ''}${collector.tester ? ', tester' : ''})</button></form></li>`,
  );
  return journeyPage(
    page,
    'Sign in',
    html`${scannedNote(form.scanned)}<p>This is the service's own collector sign-in, simulated the way the Firebase Auth emulator does it: no password.
      The country of the account is the country of your journey.</p>
    <section aria-labelledby="accounts"><h2 id="accounts">Choose an account</h2><ul class="plain">${accounts}</ul></section>
    <section aria-labelledby="create"><h2 id="create">Create an account</h2>
      <form method="post" action="/sign-in">${csrf}<input type="hidden" name="next" value="${form.next}">
        <label for="email">Email</label>
        <input id="email" name="email" type="email" autocomplete="email" required value="${form.email ?? ''}"${invalid('email')}>
        ${problem('email')}
        <label for="country">Country you are browsing from</label>
        <select id="country" name="country" required${invalid('country')}>
          <option value="">Choose a country</option>
          ${COUNTRIES.map(([code, name]) => html`<option value="${code}"${code === form.country ? html` selected` : ''}>${name} (${code})</option>`)}
        </select>
        ${problem('country')}
        <label for="city">City (optional)</label>
        <input id="city" name="city" autocomplete="address-level2" value="${form.city ?? ''}">
        <button type="submit">Create account and sign in</button>
      </form>
    </section>`,
  );
}

function scannedNote(scanned: ScannedPack | undefined): Html | string {
  if (!scanned) return '';
  const pack = html`<code class="pack-code">${scanned.code}</code> (${scanned.sku})`;
  return scanned.promotion
    ? html`<section class="scanned" aria-label="Scanned pack"><p>You scanned pack ${pack}: it takes part in <strong>${scanned.promotion.name}</strong> by ${scanned.promotion.brand}. Sign in to play.</p></section>`
    : html`<section class="scanned" aria-label="Scanned pack"><p>You scanned pack ${pack}. No promotion is running on it; sign in to see your rewards.</p></section>`;
}
