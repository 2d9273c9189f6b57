/**
 * The brand's dashboard: every promotion, then the open one's status, keys, callback URLs,
 * checklist and approval, and the live log. The default promotion is at `/`, another at `/?promotion=<slug>`.
 */
import type { FormId } from '../../pages/csrf.js';
import { type Html, html, safeLink } from '../../pages/html.js';
import { layout } from '../../pages/layout.js';
import { type DashboardRead, LOG_SHOWN } from '../../use-cases/console/dashboard.js';
import { HOSTED_REASON_TEXT } from '../../use-cases/journey/routing.js';
import type { PromotionRef } from '../../use-cases/console/reads.js';
import { clockPanel, packsPanel, sinksPanel } from './dashboard-panels.js';

/** What the page says after an action: a success line, a one-time secret, or what went wrong. */
export interface Notice {
  kind: 'success' | 'warning';
  text: string;
  items?: string[];
  secret?: string;
}

export const DASHBOARD_NAV = [
  { href: '/', label: 'Dashboard' },
  { href: '/_emulator/api-docs', label: 'API reference' },
  { href: '/promotions', label: 'Promotions (collector view)' },
];

/** The dashboard's own navigation: its panels, then the pages beside it. */
const PAGE_NAV = [
  { href: '/', label: 'Dashboard' },
  { href: '#packs', label: 'Packs' },
  { href: '#sinks', label: 'Webhook sinks' },
  { href: '#clock', label: 'Clock' },
  ...DASHBOARD_NAV.slice(1),
];

/** The promotion's page as read (`urls`: where QR codes point, the public URL, and where the CLI and curl reach the emulator), with what just happened and what a refused form had typed. */
export interface DashboardView extends DashboardRead {
  notice?: Notice;
  callbackInput?: { production: string; preview: string };
}

/** The query naming a promotion on the dashboard's links and forms (`promotion=<slug>&`), empty for the default one. */
export function pageQuery(promotion: Pick<PromotionRef, 'slug' | 'default'>): string {
  return promotion.default ? '' : `promotion=${encodeURIComponent(promotion.slug)}&`;
}

/** The page, its forms carrying the browser's form id (the answer gives its cookie). */
export function dashboardPage(form: FormId, { data, promotions, log, packs, sinks, clock, urls, notice, callbackInput }: DashboardView): Html {
  const csrf = form.field();
  const { promotion, experience, checklist } = data;
  const query = pageQuery(promotion).replace(/&$/, '');
  const to = (path: string) => (query ? `${path}?${query}` : path);
  const action = (path: string, label: string, style = '') =>
    html`<form class="inline" method="post" action="${to(path)}">${csrf}<button type="submit"${style ? html` class="${style}"` : ''}>${label}</button></form>`;
  const routing = experience.routing.to === 'agency'
    ? html`<p>Production scans go to the agency at <code>${experience.routing.callback}</code>.</p>`
    : html`<p>Production scans go to the service's hosted page because:</p><ul>${experience.routing.reasons.map((reason) => html`<li>${HOSTED_REASON_TEXT[reason]}</li>`)}</ul>`;
  const body = html`
  ${promotionsTable(promotions, promotion.id)}
  ${notice ? html`<section class="${notice.kind}" role="status"><p>${notice.text}</p>
    ${notice.secret ? html`<p class="secret">${notice.secret}</p><p>Copy it now: it is shown once and only its hash is stored.</p>` : ''}
    ${notice.items?.length ? html`<ul>${notice.items.map((item) => html`<li>${item}</li>`)}</ul>` : ''}</section>` : ''}
  <section aria-labelledby="status"><h2 id="status">${promotion.name}</h2>
    <p>${promotion.brand} · ${MECHANIC_TEXT[promotion.mechanic]} · <code>${promotion.slug}</code> · status ${promotion.status} · ${promotion.dates.start.slice(0, 10)} to ${promotion.dates.end.slice(0, 10)} · ${promotion.live ? 'accepting entries now' : 'not accepting entries now'}</p>
    <p>Experience: agency-built. Known-outcome packs reach the agency; tester and preview packs always use the hosted page.</p>
    ${routing}
    ${experience.routing_paused ? action('/console/resume', 'Resume routing to the agency') : experience.routing.to === 'agency' ? action('/console/pause', 'Pause routing to the agency', 'danger') : ''}
  </section>
  ${packsPanel(packs, urls.public)}
  <section aria-labelledby="keys"><h2 id="keys">Agency keys</h2>
    <div class="table" tabindex="0" role="region" aria-label="Agency keys table"><table class="stack"><thead><tr><th scope="col">Id</th><th scope="col">Environment</th><th scope="col">Key</th><th scope="col">Status</th><th scope="col">Expires</th><th scope="col">Actions</th></tr></thead>
    <tbody>${data.keys.map((key) => html`<tr><td data-label="Id">${key.id}</td><td data-label="Environment">${key.environment}</td><td data-label="Key"><code>${key.masked}</code></td><td data-label="Status">${key.status}</td><td data-label="Expires">${key.expires_at?.slice(0, 10)}</td>
      <td data-label="Actions">${key.status === 'revoked' ? '' : html`${action(`/console/keys/${key.id}/rotate`, 'Rotate', 'secondary')}${action(`/console/keys/${key.id}/revoke`, 'Revoke', 'danger')}`}</td></tr>`)}</tbody></table></div>
    <form method="post" action="${to('/console/keys')}">${csrf}<label for="environment">New key's environment</label>
      <select id="environment" name="environment"><option value="sandbox">sandbox</option><option value="production">production</option></select>
      <button type="submit">Create key</button></form>
    <p class="muted">Rotate creates a new key that works at once; revoke the old one once the agency has switched.</p>
  </section>
  <section aria-labelledby="callbacks"><h2 id="callbacks">Callback URLs</h2>
    <p>HTTPS, without query string or fragment (http://localhost and http://127.0.0.1 are accepted for local development). Changing either clears the approval and the checklist.</p>
    <form method="post" action="${to('/console/callbacks')}">${csrf}
      <label for="production">Production callback URL</label>
      <input id="production" name="production" type="url" required value="${callbackInput?.production ?? experience.callbacks.production ?? ''}">
      <label for="preview">Preview callback URL (optional)</label>
      <input id="preview" name="preview" type="url" value="${callbackInput?.preview ?? experience.callbacks.preview ?? ''}">
      <button type="submit">Save callback URLs</button></form>
    ${experience.callbacks.preview ? html`<p>Review the agency's preview: ${safeLink(experience.callbacks.preview, experience.callbacks.preview)}</p>` : ''}
  </section>
  <section aria-labelledby="checklist"><h2 id="checklist">Checklist: sandbox API coverage</h2>
    <p>${checklist.complete ? 'Complete: every scenario has a sandbox session and an entry.' : `Incomplete: ${checklist.missing.length} ${checklist.missing.length === 1 ? 'step' : 'steps'} to go.`} It records API coverage, not visual approval.</p>
    <div class="table" tabindex="0" role="region" aria-label="Checklist table"><table class="stack"><thead><tr><th scope="col">Scenario</th><th scope="col">Session created</th><th scope="col">Entry submitted</th></tr></thead>
    <tbody>${checklist.items.map((item) => html`<tr><td data-label="Scenario">${item.scenario}</td><td data-label="Session created">${item.session_created ? 'yes' : 'no'}</td><td data-label="Entry submitted">${item.entry_submitted ? 'yes' : 'no'}</td></tr>`)}</tbody></table></div>
  </section>
  <section aria-labelledby="approval"><h2 id="approval">Approval</h2>
    <p>${experience.approved_at ? `Approved on ${experience.approved_at}.` : 'Not approved. Review the agency\'s responsive UI, legal copy, accessibility, failure states and hosting first.'}</p>
    ${experience.approved_at ? '' : action('/console/approve', 'Approve the agency experience')}
    ${data.history.length ? html`<h3>History</h3><ul>${data.history.map((event) => html`<li>${event.at}: ${event.action}${event.reason ? ` (${event.reason})` : ''}</li>`)}</ul>` : ''}
  </section>
  <section aria-labelledby="log-heading"><h2 id="log-heading">Interaction log</h2>
    <p>The last ${LOG_SHOWN} experience API calls your backend made, for every promotion, newest last, with secrets redacted. <a href="${to('/')}">Refresh</a> · every call, as JSON: <a href="/_emulator/interactions">/_emulator/interactions</a></p>
    <div class="table" tabindex="0" role="log" aria-labelledby="log-heading"><table class="stack"><thead><tr><th scope="col">Time</th><th scope="col">Key</th><th scope="col">Request</th><th scope="col">Status</th><th scope="col">Body</th></tr></thead>
    <tbody id="log" data-after="${log.at(-1)?.id ?? 0}" data-shown="${LOG_SHOWN}">${log.slice(-LOG_SHOWN).map((row) => html`<tr><td data-label="Time">${row.at}</td><td data-label="Key"><code>${row.key ?? ''}</code></td><td data-label="Request">${row.method} ${row.path}</td><td data-label="Status">${row.status}${row.error ? html` <code>${row.error}</code>` : ''}</td><td data-label="Body">${row.body === null ? '' : html`<details><summary>Body</summary><code>${JSON.stringify(row.body)}</code></details>`}</td></tr>`)}</tbody></table></div>
  </section>
  ${sinksPanel(sinks, urls.local)}
  ${clockPanel(clock)}`;
  return layout({ title: 'Brand dashboard', body, nav: PAGE_NAV, wide: true, script: '/console/live-log.js' });
}

const MECHANIC_TEXT: Record<string, string> = { instant_win: 'instant win', code_unlock: 'code unlock', content: 'content' };

/** Every promotion of the world, each a link to its own page; the open one is marked. */
function promotionsTable(promotions: DashboardView['promotions'], current: number): Html {
  const state = ({ state: current, dates }: DashboardView['promotions'][number]) =>
    current === 'scheduled' ? `starts ${dates.start.slice(0, 10)}` : current === 'ended' ? `ended ${dates.end.slice(0, 10)}` : current;
  return html`<nav aria-labelledby="promotions-heading"><h2 id="promotions-heading">Promotions</h2>
    <div class="table" tabindex="0" role="region" aria-label="Promotions table"><table class="stack"><thead><tr><th scope="col">Promotion</th><th scope="col">Brand</th><th scope="col">Type</th><th scope="col">State</th><th scope="col">Production scans go to</th></tr></thead>
    <tbody>${promotions.map((promotion) => html`<tr><td data-label="Promotion"><a href="/${promotion.default ? '' : `?promotion=${encodeURIComponent(promotion.slug)}`}"${promotion.id === current ? html` aria-current="page"` : ''}>${promotion.name}</a>${promotion.default ? ' (default)' : ''}</td>
      <td data-label="Brand">${promotion.brand}</td><td data-label="Type">${MECHANIC_TEXT[promotion.mechanic]}</td><td data-label="State">${state(promotion)}</td><td data-label="Production scans go to">${promotion.routing.to === 'agency' ? 'the agency' : 'the hosted page'}</td></tr>`)}</tbody></table></div></nav>`;
}
