/**
 * What the report tells an agency about each check besides its verdict: the rules of docs/rules.md
 * it verifies (by their ids there), how to fix a failure in one line, and the reference agency's
 * file that does it right. A test keeps this in step with the registry, docs/rules.md and the files.
 */

export interface Guidance {
  /** Rule ids of docs/rules.md (its anchors). */
  rules: string[];
  /** How to fix a failure, in one line. */
  fix: string;
  /** The reference agency's file that does it right, relative to the package root. */
  reference: string;
}

const AGENCY = 'fixtures/agency-reference';
const RESULT_PAGE = `${AGENCY}/pages/result.ts`;

/** `journey.state.<name>`: one check per row of the entry-result table. */
const stateGuidance = (rule: string, shows: string): Guidance => ({
  rules: [rule],
  fix: `Show ${shows} as its own page state, marked as such (markers.states).`,
  reference: `${AGENCY}/outcomes.ts`,
});

export const GUIDANCE: Readonly<Record<string, Guidance>> = {
  'coverage.sandbox_calls': { rules: ['sandbox-six-calls'], fix: 'Let the preview open one sandbox session per scenario and submit its entry ({} and nothing else).', reference: `${AGENCY}/preview.ts` },
  'journey.landing_page': { rules: ['callback-is-landing'], fix: 'Answer the callback URL without service_request with the campaign page asking to scan a pack, not an error.', reference: `${AGENCY}/pages/landing.ts` },
  'journey.state.won': stateGuidance('result-won', 'a 200 won entry'),
  'journey.state.lost': stateGuidance('result-lost', 'a 200 lost entry'),
  'journey.state.pending': stateGuidance('result-pending', 'a 200 pending entry (a win being delivered)'),
  'journey.state.failed': stateGuidance('result-failed', 'a 200 failed entry (a delayed delivery)'),
  'journey.state.ineligible': stateGuidance('result-ineligible', 'a 403 ineligible answer'),
  'journey.state.already_entered': stateGuidance('result-already-entered', 'a 409 already_entered answer'),
  'journey.state.invalid_session': stateGuidance('result-invalid-session', 'a 401 invalid_session answer (ask to rescan)'),
  'journey.state.unavailable': stateGuidance('result-unavailable', 'a 409/410 unavailable answer'),
  'journey.state.rate_limited': stateGuidance('result-rate-limited', 'a 429 rate_limited answer (a wait)'),
  'journey.won_details': { rules: ['result-won', 'won-shows-prize'], fix: 'On a won entry show the prize name, every delivered code and the redemption_url when there is one.', reference: RESULT_PAGE },
  'journey.unavailable_rewards_link': { rules: ['result-unavailable', 'rewards-path'], fix: "Link the unavailable state to campaign.rewards_path resolved against the service's origin.", reference: RESULT_PAGE },
  'callback.no_store': { rules: ['callback-headers'], fix: 'Send Cache-Control: no-store on every response of the callback URL and the pages after it.', reference: `${AGENCY}/http.ts` },
  'callback.referrer_policy': { rules: ['callback-headers'], fix: 'Send Referrer-Policy: same-origin on every response of the callback URL and the pages after it.', reference: `${AGENCY}/http.ts` },
  'callback.clean_url': { rules: ['callback-clean-url'], fix: 'After handling service_request or service_code, redirect at once (303) to a URL without them.', reference: `${AGENCY}/journey.ts` },
  'callback.no_third_party': { rules: ['callback-no-third-party'], fix: "Serve every script, style, font and image from your own origin; drop tag managers and CDNs from these pages.", reference: `${AGENCY}/pages/layout.ts` },
  'callback.cookie_flags': { rules: ['session-cookie-flags'], fix: 'Set the session cookie with HttpOnly, SameSite=Lax and Secure (Secure needs https).', reference: `${AGENCY}/browser-sessions.ts` },
  'logs.params_redacted': { rules: ['callback-logs-redacted'], fix: 'Redact the query string (service_request, service_code, state) before a URL reaches your log.', reference: `${AGENCY}/logger.ts` },
  'state.format': { rules: ['state-format'], fix: 'Generate state from a CSPRNG: 32 random bytes, base64url-encoded (43 characters).', reference: `${AGENCY}/journey.ts` },
  'state.browser_supplied_ignored': { rules: ['pkce-server-side'], fix: 'Generate state on the server for every journey; never take it from the query, a form or a cookie value.', reference: `${AGENCY}/journey.ts` },
  'state.tampered_rejected': { rules: ['callback-validated'], fix: 'Compare the returned state with the stored one in full, in constant time, and refuse any difference.', reference: `${AGENCY}/journey.ts` },
  'state.unsolicited_rejected': { rules: ['callback-validated'], fix: 'Refuse a callback with service_code when this browser has no pending transaction for its state.', reference: `${AGENCY}/journey.ts` },
  'state.replay_rejected': { rules: ['callback-validated', 'transaction-consumed-once'], fix: 'Delete the stored transaction when its callback arrives, before exchanging the code.', reference: `${AGENCY}/browser-sessions.ts` },
  'state.cookie_required': { rules: ['callback-validated', 'pkce-server-side'], fix: "Look the transaction up through the browser's own session cookie, never through state alone.", reference: `${AGENCY}/browser-sessions.ts` },
  'pkce.verifier_format': { rules: ['verifier-format'], fix: 'Generate code_verifier from a CSPRNG: 32 random bytes, base64url-encoded (43 characters).', reference: `${AGENCY}/journey.ts` },
  'pkce.s256': { rules: ['challenge-s256'], fix: 'Send code_challenge = unpadded base64url(SHA-256(verifier)) with code_challenge_method=S256.', reference: `${AGENCY}/journey.ts` },
  'pkce.fresh_per_journey': { rules: ['pkce-server-side'], fix: 'Generate a new state and verifier for every journey, never reuse them.', reference: `${AGENCY}/journey.ts` },
  'secrets.key_not_in_browser': { rules: ['key-backend-only', 'secrets-out-of-browser'], fix: 'Keep the agency keys on the server: never in a page, a script, JSON for the browser or a URL.', reference: `${AGENCY}/experience-client.ts` },
  'secrets.session_token_not_in_browser': { rules: ['session-token-server-side', 'secrets-out-of-browser'], fix: 'Keep the session token in server-side state keyed by your cookie; never send it to the browser or put it in a URL.', reference: `${AGENCY}/browser-sessions.ts` },
  'secrets.verifier_not_in_browser': { rules: ['pkce-server-side'], fix: 'Store code_verifier in the server-side transaction, never in a cookie, page or URL.', reference: `${AGENCY}/browser-sessions.ts` },
  'entry.no_forbidden_fields': { rules: ['entry-consent-only'], fix: 'Send the entry with consent only (production) or {} (sandbox): no consumer id, email, pack code or country.', reference: `${AGENCY}/entry.ts` },
  'entry.terms_version_echoed': { rules: ['terms-version-echoed'], fix: "Send back terms.version exactly as this session's last read returned it.", reference: `${AGENCY}/entry.ts` },
  'terms.html_inert': { rules: ['terms-text-inert'], fix: 'Escape terms.text when you render it; never insert it as HTML.', reference: `${AGENCY}/pages/html.ts` },
  'terms.javascript_link_inert': { rules: ['terms-links-safe'], fix: 'Render terms.url and terms.links only when they are http(s); show anything else as text.', reference: `${AGENCY}/pages/consent.ts` },
  'consent.not_preselected': { rules: ['consent-not-preselected'], fix: 'Render every consent box unticked.', reference: `${AGENCY}/pages/consent.ts` },
  'consent.separate_from_marketing': { rules: ['consent-separate-from-marketing'], fix: 'Ask for the terms and for marketing with two boxes; the terms box says nothing about marketing.', reference: `${AGENCY}/pages/consent.ts` },
  'consent.required': { rules: ['terms-required'], fix: 'Refuse on your server an entry whose terms box was not ticked, before calling the service.', reference: `${AGENCY}/entry.ts` },
  'consent.age_confirmation': { rules: ['terms-minimum-age'], fix: 'When terms.minimum_age is set, ask for it with its own box and send age_confirmed.', reference: `${AGENCY}/pages/consent.ts` },
  'consent.refresh_after_422': { rules: ['result-consent-required'], fix: 'On 422 consent_required read the session again and ask for consent with its current terms.', reference: `${AGENCY}/entry.ts` },
  'behaviour.polling_intervals': { rules: ['polling-backoff'], fix: 'Poll a pending entry after 2, 5 and 10 s, then every 30 s, decided by your server, not the page.', reference: `${AGENCY}/polling.ts` },
  'behaviour.polling_stops': { rules: ['polling-stops'], fix: 'Stop polling on delivered, failed, an ended session or unavailable, and show the final state.', reference: `${AGENCY}/polling.ts` },
  'behaviour.no_redraw_after_failed': { rules: ['result-failed'], fix: 'Show a failed delivery as a delay of a win; never submit the entry again.', reference: RESULT_PAGE },
  'behaviour.no_new_identity_after_401': { rules: ['result-invalid-session'], fix: 'On 401 invalid_session ask to rescan the pack; never start another session on your own.', reference: `${AGENCY}/entry.ts` },
  'behaviour.retry_after_honoured': { rules: ['result-rate-limited', 'rate-limits'], fix: 'After a 429 send nothing to the service for this session until Retry-After has passed.', reference: `${AGENCY}/entry.ts` },
  'behaviour.no_exchange_retry': { rules: ['exchange-never-retried'], fix: 'When the code exchange fails, show a rescan message; never call POST /sessions again with that code.', reference: `${AGENCY}/journey.ts` },
  'endpoint.csrf': { rules: ['agency-endpoint-protected'], fix: 'Require a per-session CSRF token on your entry endpoint and refuse requests from other origins.', reference: `${AGENCY}/entry.ts` },
  'endpoint.rate_limited': { rules: ['agency-endpoint-protected'], fix: 'Rate-limit your entry endpoint per browser session and answer 429 beyond it.', reference: `${AGENCY}/entry.ts` },
  'a11y.axe': { rules: ['brand-review'], fix: 'Fix the violations axe-core lists for each state (labels, contrast, landmarks).', reference: `${AGENCY}/pages/layout.ts` },
  'review.screenshots': { rules: ['brand-review'], fix: 'Nothing to fix: the brand reviews the screenshots by hand.', reference: `${AGENCY}/pages/styles.ts` },
};
