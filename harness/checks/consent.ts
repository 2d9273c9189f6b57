/** The entry body, the terms and the consent form. @see spec §2.4, §2.6, §4.1 rule 1, §4.2 422 */
import type { ObservedCall } from '../emulator-client/client.js';
import type { JourneyFacts, RunFacts } from '../run/facts.js';
import { showsTerms, termsOf } from '../run/terms.js';
import type { ConsentBox } from '../browser/in-page.js';
import type { ConsentView } from '../browser/seen.js';
import { patternOf, vocabularyOf } from '../vocabulary.js';
import { isEntry, isSessionRead, productionEntries, where } from './observed.js';
import { CONSENT_FORM } from './allowances.js';
import { type Check, type Evidence, REFERENCE_AGENCY, fail, inconclusive, pass } from './types.js';

/** The markup a scenario injects into terms.text: an element with a data- attribute (its name drawn per run, RunFacts.probeMark). */
const INJECTED = /<\w+ data-[\w-]+="/;
const CONSENT_FIELDS = new Set(['accepted', 'age_confirmed', 'terms_version']);
const TERMS_BOX = 'markers.consent_boxes.terms (the box that accepts the terms), or its words in `vocabulary`';
const AGE_BOX = 'markers.consent_boxes.age (the box that confirms the minimum age), or its words in `vocabulary`';

interface EntryBody {
  consent?: { accepted?: unknown; age_confirmed?: unknown; terms_version?: unknown };
  [field: string]: unknown;
}

const bodyOf = (call: ObservedCall) => (call.body ?? {}) as EntryBody;

/** Fields of an entry body beyond the consent object of spec §2.6. */
function extraFields(body: EntryBody): string[] {
  const consent = body.consent && typeof body.consent === 'object' ? Object.keys(body.consent).filter((field) => !CONSENT_FIELDS.has(field)).map((field) => `consent.${field}`) : [];
  return [...Object.keys(body).filter((field) => field !== 'consent'), ...consent];
}

/** First renders of each journey's consent form. */
const firstViews = (facts: RunFacts) => facts.journeys.flatMap((journey) => (journey.consent[0]?.hasForm ? [{ journey, view: journey.consent[0] }] : []));

/** Entry calls of the journey between a submission and the next one. */
function entriesAfter(facts: RunFacts, journey: JourneyFacts, index: number): ObservedCall[] {
  const from = facts.onEmulatorClock(journey.submissions[index]!.at);
  const to = journey.submissions[index + 1] ? facts.onEmulatorClock(journey.submissions[index + 1]!.at) : Number.POSITIVE_INFINITY;
  return facts.callsOf(journey.pack.code).filter((call) => isEntry(call) && call.at >= from - 50 && call.at < to);
}

/** A form's boxes as the harness read them: each role and how it was found. */
function describe(boxes: ConsentBox[]): string {
  return boxes.map((box) => `${box.role} (${box.by}): "${box.label.slice(0, 80)}"`).join('; ') || 'no boxes';
}

export const CONSENT_CHECKS: Check[] = [
  {
    id: 'entry.no_forbidden_fields',
    title: 'The entry carries consent only: no consumer id, email, pack code or country (sandbox entries included)',
    group: 'entry',
    spec: '§4.1 rule 1',
    kind: 'can_fail',
    guidance: { rules: ['entry-consent-only'], fix: 'Send the entry with consent only (production) or {} (sandbox): no consumer id, email, pack code or country.', reference: `${REFERENCE_AGENCY}/entry.ts` },
    allowedBy: CONSENT_FORM,
    evaluate(facts) {
      const production = productionEntries(facts).filter(({ call }) => call.fault === undefined);
      // The preview's entries too: the service refuses one that carries more, so a refused sandbox entry is evidence as well.
      const sandbox = facts.calls.filter((call) => isEntry(call) && call.environment === 'sandbox');
      if (production.length + sandbox.length === 0) return undefined;
      const problems: Evidence[] = [];
      for (const { journey, call } of production) {
        const known = [journey.pack.code, journey.email, journey.country];
        const leaked = JSON.stringify(bodyOf(call)).match(new RegExp(known.map((value) => `"${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"`).join('|'), 'g')) ?? [];
        const extra = extraFields(bodyOf(call));
        if (extra.length || leaked.length) problems.push({ label: `${where(journey)}: fields ${extra.join(', ') || '(none extra)'}${leaked.length ? `; carries ${leaked.join(', ')}` : ''}`, data: bodyOf(call) });
      }
      for (const call of sandbox) {
        const extra = extraFields(bodyOf(call));
        if (extra.length) problems.push({ label: `the preview's ${call.scenario ?? 'sandbox'} entry: fields ${extra.join(', ')} (answered ${call.status}${call.answer?.error ? ` ${call.answer.error}` : ''})`, data: bodyOf(call) });
      }
      if (problems.length) return fail(`an entry body carries more than consent: ${problems[0]!.label}`, [problems[0]!, ...problems.slice(1)]);
      return pass(production.length + sandbox.length, `${production.length} production and ${sandbox.length} sandbox entries, consent only`);
    },
  },
  {
    id: 'entry.terms_version_echoed',
    title: 'terms_version is the version the service returned for this session',
    group: 'entry',
    spec: '§2.4 version, §2.6',
    kind: 'can_fail',
    guidance: { rules: ['terms-version-echoed'], fix: "Send back terms.version exactly as this session's last read returned it.", reference: `${REFERENCE_AGENCY}/entry.ts` },
    allowedBy: CONSENT_FORM,
    evaluate(facts) {
      const checked: Evidence[] = [];
      const wrong: Evidence[] = [];
      for (const { journey, call } of productionEntries(facts)) {
        const sent = bodyOf(call).consent?.terms_version;
        if (sent === undefined || call.fault !== undefined) continue;
        const answers = facts.calls.filter((candidate) => candidate.session_id === call.session_id && candidate.seq < call.seq && candidate.answer?.terms_version);
        const expected = answers.at(-1)?.answer?.terms_version;
        if (!expected) continue;
        const item = { label: `${where(journey)}: sent "${String(sent)}", the session's terms are "${expected}"` };
        checked.push(item);
        if (sent !== expected) wrong.push(item);
      }
      if (checked.length === 0) return undefined;
      return wrong.length ? fail(wrong[0]!.label, [wrong[0]!, ...wrong.slice(1)]) : pass(checked.length, `${checked.length} entries, each with its session's version`, checked);
    },
  },
  {
    id: 'terms.html_inert',
    title: 'HTML in terms.text is shown as text, never as markup',
    group: 'consent',
    spec: '§2.4',
    kind: 'can_fail',
    guidance: { rules: ['terms-text-inert'], fix: 'Escape terms.text when you render it; never insert it as HTML.', reference: `${REFERENCE_AGENCY}/pages/html.ts` },
    allowedBy: CONSENT_FORM,
    evaluate(facts) {
      const views = viewsAfterEdit(facts, (edit) => INJECTED.test(edit.set.text ?? ''));
      if (views.length === 0) return undefined;
      const live = views.filter(({ view }) => view.probeElements > 0);
      const evidence = views.map(({ journey, view }) => ({ label: `${where(journey)}: ${view.probeElements} element(s) from the terms' markup; shown as text: ${INJECTED.test(view.termsText) ? 'yes' : 'no (removed)'}` }));
      return live.length ? fail(`markup in terms.text became ${live[0]!.view.probeElements} element(s) on the consent page`, [evidence[views.indexOf(live[0]!)]!, ...evidence]) : pass(views.length, 'the markup stays text', evidence);
    },
  },
  {
    id: 'terms.javascript_link_inert',
    title: 'A javascript: URL in the terms never becomes a link',
    group: 'consent',
    spec: '§2.4',
    kind: 'can_fail',
    guidance: { rules: ['terms-links-safe'], fix: 'Render terms.url and terms.links only when they are http(s); show anything else as text.', reference: `${REFERENCE_AGENCY}/pages/consent.ts` },
    allowedBy: CONSENT_FORM,
    evaluate(facts) {
      const views = viewsAfterEdit(facts, (edit) => [edit.set.url, ...(edit.set.links ?? []).map((link) => link.url)].some((url) => url && /^\s*javascript:/i.test(url)));
      if (views.length === 0) return undefined;
      const active = views.filter(({ view }) => view.unsafeLinks.length > 0);
      const evidence = views.map(({ journey, view }) => ({ label: `${where(journey)}: ${view.unsafeLinks.length ? `link to ${view.unsafeLinks[0]!.slice(0, 40)}` : 'no javascript: link'}` }));
      return active.length ? fail('a javascript: URL from the terms is an active link', [evidence[views.indexOf(active[0]!)]!, ...evidence]) : pass(views.length, 'shown as text, not as a link', evidence);
    },
  },
  {
    id: 'consent.not_preselected',
    title: 'No consent box is ticked in advance',
    group: 'consent',
    spec: '§2.4',
    kind: 'can_fail',
    guidance: { rules: ['consent-not-preselected'], fix: 'Render every consent box unticked.', reference: `${REFERENCE_AGENCY}/pages/consent.ts` },
    allowedBy: CONSENT_FORM,
    evaluate(facts) {
      const views = firstViews(facts);
      if (views.length === 0) return undefined;
      const ticked = views.flatMap(({ journey, view }) => view.boxes.filter((box) => box.checked).map((box) => ({ label: `${where(journey)}: "${box.label}" is ticked when the page opens` })));
      // What the harness clicked to show a form the page held hidden, so the brand sees which form was judged.
      const opened = views.flatMap(({ journey, view }) => (view.opened ? [{ label: `${where(journey)}: ${view.opened}` }] : []));
      // And what it clicked on a page asking to confirm the form once sent: the form judged is the one before it.
      opened.push(...facts.journeys.flatMap((journey) => journey.submissions.flatMap((submission) => (submission.confirmed ? [{ label: `${where(journey)}: ${submission.confirmed}` }] : []))));
      return ticked.length ? fail(ticked[0]!.label, [ticked[0]!, ...ticked.slice(1), ...opened]) : pass(views.length, `${views.length} consent forms, every box unticked`, opened);
    },
  },
  {
    id: 'consent.separate_from_marketing',
    title: 'Accepting the terms is not combined with marketing consent',
    group: 'consent',
    spec: '§2.4',
    kind: 'can_fail',
    guidance: { rules: ['consent-separate-from-marketing'], fix: 'Ask for the terms and for marketing with two boxes; the terms box says nothing about marketing.', reference: `${REFERENCE_AGENCY}/pages/consent.ts` },
    allowedBy: CONSENT_FORM,
    evaluate(facts) {
      const views = firstViews(facts);
      if (views.length === 0) return undefined;
      const vocabulary = vocabularyOf(facts.config.vocabulary);
      const [marketing, known] = [patternOf(vocabulary.marketing), patternOf([...vocabulary.terms, ...vocabulary.accept])];
      const bundled: Evidence[] = [];
      const unknown: Evidence[] = [];
      const separate: Evidence[] = [];
      for (const { journey, view } of views) {
        const terms = view.boxes.filter((box) => box.role === 'terms');
        const apart = view.boxes.filter((box) => box.role === 'marketing');
        if (terms.length === 0) unknown.push({ label: `${where(journey)}: no box could be told to accept the terms (${describe(view.boxes)})` });
        for (const box of terms) {
          const label = `${where(journey)}: "${box.label}"`;
          // Whether a label also offers marketing is read in words; one in no language the vocabulary knows is not judged, unless marketing has its own box.
          if (marketing.test(box.label)) bundled.push({ label });
          else if (known.test(box.label) || apart.length > 0) separate.push({ label: `${label}${apart.length ? `; marketing apart: "${apart[0]!.label}"` : ''}` });
          else unknown.push({ label: `${label}: no word of the vocabulary, so whether it also asks for marketing is unknown` });
        }
      }
      if (bundled.length) return fail(`the terms box also asks for marketing consent: ${bundled[0]!.label}`, [bundled[0]!, ...bundled.slice(1)]);
      if (unknown.length) return inconclusive(`the terms box could not be judged: ${unknown[0]!.label}`, TERMS_BOX, unknown);
      return pass(views.length, 'a box of its own for the terms; marketing, if asked, separately', separate);
    },
  },
  {
    id: 'consent.required',
    title: 'No entry without explicit acceptance of the terms',
    group: 'consent',
    spec: '§2.4 required',
    kind: 'can_fail',
    guidance: { rules: ['terms-required'], fix: 'Refuse on your server an entry whose terms box was not ticked, before calling the service.', reference: `${REFERENCE_AGENCY}/entry.ts` },
    allowedBy: CONSENT_FORM,
    evaluate: (facts) => consentBreaches(facts, 'accept', (body) => body.consent?.accepted === true, 'accepted: true'),
  },
  {
    id: 'consent.age_confirmation',
    title: 'The minimum age is confirmed separately when the terms set one',
    group: 'consent',
    spec: '§2.4 minimum_age, §2.6',
    kind: 'can_fail',
    guidance: { rules: ['terms-minimum-age'], fix: 'When terms.minimum_age is set, ask for it with its own box and send age_confirmed.', reference: `${REFERENCE_AGENCY}/pages/consent.ts` },
    allowedBy: CONSENT_FORM,
    evaluate(facts) {
      const views = firstViews(facts).filter(({ journey }) => termsOf(facts, journey.country)?.minimum_age !== undefined);
      const missing = views.filter(({ view }) => !view.boxes.some((box) => box.role === 'age'));
      // A box the harness could not classify may be the age box: no failure then, only what to configure.
      const unsure = missing.filter(({ view }) => view.boxes.some((box) => box.role === 'other'));
      const age = (journey: JourneyFacts) => termsOf(facts, journey.country)?.minimum_age;
      if (unsure.length) return inconclusive(`no box was recognised as confirming the minimum age ${age(unsure[0]!.journey)}, and some could not be classified: ${where(unsure[0]!.journey)} (${describe(unsure[0]!.view.boxes)})`, AGE_BOX);
      if (missing.length) {
        const evidence = missing.map(({ journey, view }) => ({ label: `${where(journey)} (${journey.country}): ${describe(view.boxes)}` }));
        return fail(`the consent form has no minimum-age box though the terms set ${age(missing[0]!.journey)}`, [evidence[0]!, ...evidence.slice(1)]);
      }
      return consentBreaches(facts, 'age', (body) => body.consent?.age_confirmed === true, 'age_confirmed: true');
    },
  },
  {
    id: 'consent.refresh_after_422',
    title: 'After 422 consent_required the agency reads the session again and asks with its current terms',
    group: 'consent',
    spec: '§4.2 422 consent_required',
    kind: 'can_fail',
    guidance: { rules: ['result-consent-required'], fix: 'On 422 consent_required read the session again and ask for consent with its current terms.', reference: `${REFERENCE_AGENCY}/entry.ts` },
    allowedBy: CONSENT_FORM,
    evaluate(facts) {
      const results: Evidence[] = [];
      const problems: string[] = [];
      for (const journey of facts.journeys) {
        const refused = refusedAfterEdit(facts, journey);
        if (!refused) continue;
        const edit = facts.termsEdits.filter((candidate) => candidate.scenario === journey.scenario && facts.onEmulatorClock(candidate.at) <= refused.at).at(-1);
        const reread = facts.callsOf(journey.pack.code).some((call) => isSessionRead(call) && call.seq > refused.seq);
        const after = journey.consent.find((view) => facts.onEmulatorClock(view.at) > refused.at);
        const current = edit?.set.version ?? termsOf(facts, journey.country)?.version;
        const shows = Boolean(after && (after.termsVersion === current || (edit && showsTerms(after, edit.set))));
        const unticked = Boolean(after && after.boxes.every((box) => !box.checked));
        results.push({ label: `${where(journey)}: 422 answered; session read again: ${reread ? 'yes' : 'no'}; the form then shows version ${after?.termsVersion ?? '?'} (current ${current}), boxes unticked: ${unticked ? 'yes' : 'no'}` });
        if (!reread) problems.push(`${where(journey)}: after the 422 the session was not read again`);
        else if (!after) problems.push(`${where(journey)}: no consent form after the 422`);
        else if (!shows) problems.push(`${where(journey)}: the form still shows terms version ${after.termsVersion}, not ${current}`);
        else if (!unticked) problems.push(`${where(journey)}: the boxes stay ticked after the terms changed`);
      }
      if (results.length === 0) return undefined;
      return problems.length ? fail(problems[0]!, [{ label: problems[0]! }, ...results]) : pass(results.length, 'the session read again, the new terms shown, acceptance asked again', results);
    },
  },
];

/**
 * The 422 consent_required this check judges: the answer to an entry the harness sent with every
 * box it asks ticked, after it changed the journey's terms. A 422 to a form sent with a box left
 * unticked (consent.required's probe) is the contract working, not a change of terms: the agency
 * may show the form again or not, and no consent form is read after it.
 */
function refusedAfterEdit(facts: RunFacts, journey: JourneyFacts): ObservedCall | undefined {
  const edited = facts.termsEdits.filter((edit) => edit.scenario === journey.scenario && edit.journey === journey.journey);
  const minimumAge = termsOf(facts, journey.country)?.minimum_age !== undefined;
  for (const [index, submission] of journey.submissions.entries()) {
    if (!submission.accept || (minimumAge && !submission.age) || !edited.some((edit) => edit.at <= submission.at)) continue;
    const refused = entriesAfter(facts, journey, index).find((call) => call.answer?.error === 'consent_required' && call.fault === undefined);
    if (refused) return refused;
  }
  return undefined;
}

/** Entries sent after the harness left a box unticked that still claim it was ticked. */
function consentBreaches(facts: RunFacts, box: 'accept' | 'age', claims: (body: EntryBody) => boolean, claim: string) {
  const tried: Evidence[] = [];
  const breaches: Evidence[] = [];
  for (const journey of facts.journeys) {
    journey.submissions.forEach((submission, index) => {
      if (submission[box] || (box === 'age' && termsOf(facts, journey.country)?.minimum_age === undefined)) return;
      const sent = entriesAfter(facts, journey, index);
      const claimed = sent.filter((call) => claims(bodyOf(call)));
      const label = `${where(journey)}: form sent with the ${box === 'accept' ? 'terms' : 'age'} box unticked; ${sent.length} entry call(s) followed${claimed.length ? `, claiming ${claim}` : ''}`;
      tried.push({ label });
      if (claimed.length) breaches.push({ label, data: bodyOf(claimed[0]!) });
    });
  }
  if (tried.length === 0) return undefined;
  return breaches.length ? fail(`an entry claimed ${claim} though the box was not ticked`, [breaches[0]!, ...breaches.slice(1)]) : pass(tried.length, `${tried.length} submission(s) without it; no entry claimed it`, tried);
}

/** Consent views taken after the run edited the journey's terms in a given way. */
function viewsAfterEdit(facts: RunFacts, edited: (edit: RunFacts['termsEdits'][number]) => boolean): Array<{ journey: JourneyFacts; view: ConsentView }> {
  return facts.journeys.flatMap((journey) => {
    const edit = facts.termsEdits.find((candidate) => candidate.scenario === journey.scenario && edited(candidate));
    if (!edit) return [];
    const next = facts.termsEdits.find((candidate) => candidate.scenario === journey.scenario && candidate.at > edit.at);
    return journey.consent.filter((view) => view.hasForm && view.at > edit.at && (!next || view.at < next.at)).map((view) => ({ journey, view }));
  });
}
