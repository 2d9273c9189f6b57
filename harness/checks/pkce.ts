/**
 * PKCE and state. A rejection passes only on positive evidence: no exchange of that code reached
 * the service from the probe (so no session was created), on a transaction shown alive by a
 * control exchange, proving the refusal was the agency's judgement of the probe. @see spec §4.3 steps 3 to 6, §5 rule 4, §8
 */
import type { VerifierVerdict } from '../emulator-client/client.js';
import type { JourneyFacts, Probe, ProbeKind, RunFacts } from '../run/facts.js';
import { exchangesOf, issuedExchange, journeyExchanges, where } from './observed.js';
import { type Check, type Evidence, type Guidance, REFERENCE_AGENCY, type Verdict, fail, inconclusive, pass } from './types.js';

const STATE = /^[A-Za-z0-9_-]{32,128}$/;
/** BASE64URL(SHA256(verifier)) without padding: always 43 characters. @see spec §4.3 step 4 */
const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
/** 43 to 128 unreserved characters: the emulator judges the characters, so it need not keep the verifier. */
const verifierOk = (verifier: VerifierVerdict) => verifier.unreserved && verifier.length >= 43 && verifier.length <= 128;

export const PKCE_CHECKS: Check[] = [
  {
    id: 'state.format',
    title: 'state is 32 to 128 base64url characters',
    group: 'pkce',
    spec: '§5 rule 4, §8',
    kind: 'can_fail',
    guidance: { rules: ['state-format'], fix: 'Generate state from a CSPRNG: 32 random bytes, base64url-encoded (43 characters).', reference: `${REFERENCE_AGENCY}/journey.ts` },
    evaluate(facts) {
      const sent = facts.journeys.filter((journey) => journey.authorize?.state !== undefined);
      if (sent.length === 0) return undefined;
      const describe = (state: string) => `${state.length} characters${STATE.test(state) ? '' : ', not 32 to 128 base64url'}`;
      const evidence = sent.map((journey) => ({ label: `${where(journey)}: ${describe(journey.authorize!.state!)}` }));
      const bad = evidence.filter((_item, index) => !STATE.test(sent[index]!.authorize!.state!));
      return bad.length ? fail(`a state sent to authorize is outside the rule: ${bad[0]!.label}`, [bad[0]!, ...evidence]) : pass(sent.length, `${sent.length} journeys, each state within the rule`, evidence);
    },
  },
  {
    id: 'state.browser_supplied_ignored',
    title: 'A state supplied by the browser is not used',
    group: 'pkce',
    spec: '§5 rule 4',
    kind: 'can_fail',
    guidance: { rules: ['pkce-server-side'], fix: 'Generate state on the server for every journey; never take it from the query, a form or a cookie value.', reference: `${REFERENCE_AGENCY}/journey.ts` },
    evaluate(facts) {
      const supplied = facts.journeys.filter((journey) => journey.suppliedState);
      if (supplied.length === 0) return undefined;
      const used = supplied.filter((journey) => journey.authorize?.state === journey.suppliedState);
      if (used.length) return fail('the agency sent the state the browser put in the callback URL to the authorize page', [{ label: `${where(used[0]!)}: authorize state = the supplied state` }]);
      const judged = supplied.filter((journey) => journey.authorize?.state);
      if (judged.length === 0) return inconclusive('after a state was supplied, the agency never sent the browser to authorize, so there is no state to compare', undefined, supplied.map((journey) => ({ label: where(journey) })));
      return pass(judged.length, 'the agency made its own state', judged.map((journey) => ({ label: `${where(journey)}: a fresh state, not the supplied one` })));
    },
  },
  rejection('state.tampered_rejected', 'A callback with a tampered state is rejected (changed, truncated, extended, halved, case-swapped, empty)', 'tampered_state', '§4.3 step 6', { rules: ['callback-validated'], fix: 'Compare the returned state with the stored one in full, in constant time, and refuse any difference.', reference: `${REFERENCE_AGENCY}/journey.ts` }),
  rejection('state.unsolicited_rejected', 'An unsolicited callback (no journey started in this browser) is rejected', 'unsolicited', '§4.3 step 6', { rules: ['callback-validated'], fix: 'Refuse a callback with service_code when this browser has no pending transaction for its state.', reference: `${REFERENCE_AGENCY}/journey.ts` }),
  rejection('state.replay_rejected', 'A replayed callback is rejected: the transaction is consumed once', 'replay', '§4.3 step 6, §5 rule 4', { rules: ['callback-validated', 'transaction-consumed-once'], fix: 'Delete the stored transaction when its callback arrives, before exchanging the code.', reference: `${REFERENCE_AGENCY}/browser-sessions.ts` }),
  rejection('state.cookie_required', 'A callback opened in another browser (without the cookie) is rejected', 'other_browser', '§4.3 steps 3 and 6', { rules: ['callback-validated', 'pkce-server-side'], fix: "Look the transaction up through the browser's own session cookie, never through state alone.", reference: `${REFERENCE_AGENCY}/browser-sessions.ts` }),
  {
    id: 'pkce.verifier_format',
    title: 'code_verifier is 43 to 128 unreserved characters',
    group: 'pkce',
    spec: '§5 rule 4, §8',
    kind: 'can_fail',
    guidance: { rules: ['verifier-format'], fix: 'Generate code_verifier from a CSPRNG: 32 random bytes, base64url-encoded (43 characters).', reference: `${REFERENCE_AGENCY}/journey.ts` },
    evaluate(facts) {
      const verifiers = facts.journeys.flatMap((journey) => journeyExchanges(facts, journey).flatMap((call) => (call.verifier === undefined ? [] : [{ journey, verifier: call.verifier }])));
      if (verifiers.length === 0) return undefined;
      const describe = (verifier: VerifierVerdict) => `${verifier.length} characters${verifier.unreserved ? '' : ', not all unreserved'}`;
      const evidence = verifiers.map(({ journey, verifier }) => ({ label: `${where(journey)}: ${describe(verifier)}${verifierOk(verifier) ? '' : ', outside the rule'}` }));
      const bad = evidence.filter((_item, index) => !verifierOk(verifiers[index]!.verifier));
      return bad.length ? fail(`a code_verifier outside the rule reached the service: ${bad[0]!.label}`, [bad[0]!, ...evidence]) : pass(verifiers.length, `${verifiers.length} verifiers, each within the rule`, evidence);
    },
  },
  {
    id: 'pkce.s256',
    title: 'code_challenge is 43 base64url characters, the S256 of the verifier, with code_challenge_method=S256',
    group: 'pkce',
    spec: '§4.3 step 4',
    kind: 'can_fail',
    guidance: { rules: ['challenge-s256'], fix: 'Send code_challenge = unpadded base64url(SHA-256(verifier)) with code_challenge_method=S256.', reference: `${REFERENCE_AGENCY}/journey.ts` },
    evaluate(facts) {
      const sent = facts.journeys.filter((journey) => journey.authorize);
      if (sent.length === 0) return undefined;
      const problems: Evidence[] = [];
      const evidence: Evidence[] = [];
      let compared = 0;
      for (const journey of sent) {
        const { method, challenge } = journey.authorize!;
        // The format is the harness's own judgement, before the service's: a refused authorize request leaves nothing to compare.
        if (method !== 'S256') problems.push({ label: `${where(journey)}: code_challenge_method=${method ?? '(none)'}` });
        else if (!challenge || !CHALLENGE.test(challenge)) problems.push({ label: `${where(journey)}: code_challenge is ${challenge ? `${challenge.length} characters${/[^A-Za-z0-9_-]/.test(challenge) ? ' with characters outside base64url (padding or +/)' : ''}` : 'missing'}, not 43 base64url characters` });
        else {
          const verifier = journeyExchanges(facts, journey).find((call) => call.verifier !== undefined)?.verifier;
          if (verifier && verifier.s256 !== challenge) problems.push({ label: `${where(journey)}: the challenge is not BASE64URL(SHA256(verifier)) of the verifier the exchange presented` });
          else if (verifier) compared += 1;
          evidence.push({ label: `${where(journey)}: method S256, 43 characters${verifier ? (verifier.s256 === challenge ? ', matches the verifier' : '') : ', no exchange to compare with'}` });
        }
      }
      if (problems.length) return fail(problems[0]!.label, [problems[0]!, ...problems.slice(1), ...evidence]);
      if (compared === 0) return inconclusive(`S256 on ${sent.length} journey(s), but no exchange presented a verifier to compare with`, undefined, evidence);
      return pass(compared, `S256 on ${sent.length} journeys; ${compared} compared with the verifier the service received`, evidence);
    },
  },
  {
    id: 'pkce.fresh_per_journey',
    title: 'Every journey has its own state and verifier',
    group: 'pkce',
    spec: '§5 rule 4',
    kind: 'can_fail',
    guidance: { rules: ['pkce-server-side'], fix: 'Generate a new state and verifier for every journey, never reuse them.', reference: `${REFERENCE_AGENCY}/journey.ts` },
    evaluate(facts) {
      const sent = facts.journeys.filter((journey) => journey.authorize?.challenge);
      if (sent.length < 2) return undefined;
      const repeated = (values: Array<string | undefined>) => {
        const known = values.filter((value): value is string => Boolean(value));
        return known.length - new Set(known).size;
      };
      const verifiers = sent.map((journey) => journeyExchanges(facts, journey).find((call) => call.verifier)?.verifier?.s256);
      const counts = { challenges: repeated(sent.map((journey) => journey.authorize!.challenge)), states: repeated(sent.map((journey) => journey.authorize!.state)), verifiers: repeated(verifiers) };
      const evidence: [Evidence] = [{ label: `${sent.length} journeys: ${counts.challenges} repeated challenge(s), ${counts.states} repeated state(s), ${counts.verifiers} repeated verifier(s)` }];
      if (counts.challenges || counts.verifiers) return fail(`${sent.length} journeys share code_verifiers: ${counts.challenges + counts.verifiers} repeats`, evidence);
      if (counts.states) return fail(`${counts.states} state value(s) repeated across journeys`, evidence);
      return pass(sent.length, `${sent.length} journeys, no state or verifier repeated`, evidence);
    },
  },
];

function rejection(id: string, title: string, kind: ProbeKind, spec: string, guidance: Guidance): Check {
  return {
    id, title, group: 'pkce', spec, kind: 'can_fail', guidance,
    evaluate(facts) {
      const probes = facts.probes.filter((probe) => probe.kind === kind);
      if (probes.length === 0) return undefined;
      return judgeRejections(facts, probes);
    },
  };
}

/**
 * Rejected = the probe's code reached the service only from the journey's own browser opening the
 * callback as issued: an exchange at any other time (however late) is a probe's, and fails. A
 * refusal is proven only on a transaction shown alive when the probe was refused: the same
 * transaction opened as issued after the probe was exchanged (its control); or, for an agency
 * that consumes a transaction on a mismatched callback (as it may), the probe was the first
 * callback of a fresh transaction and a journey of the same scenario, started the same way and not
 * probed, was exchanged as issued. Anything else is inconclusive: a refusal of a transaction
 * already gone proves nothing about the check. What the page showed is evidence for the brand to
 * read, not the verdict: an agency may word its refusal as it likes.
 */
function judgeRejections(facts: RunFacts, probes: Probe[]): Verdict {
  const evidence: Evidence[] = [];
  const problems: Evidence[] = [];
  const unproven: Evidence[] = [];
  const byCode = new Map<string, Probe[]>();
  for (const probe of probes) byCode.set(probe.codeSha, [...(byCode.get(probe.codeSha) ?? []), probe]);
  for (const [codeSha, ofCode] of byCode) {
    const journey = facts.journey(ofCode[0]!.scenario, ofCode[0]!.journey);
    const issued = journey && issuedExchange(facts, journey);
    const probed = exchangesOf(facts, codeSha).filter((call) => call !== issued);
    if (probed.length) {
      // The probe the exchange followed: the last one sent before it.
      const after = [...ofCode].reverse().find((probe) => facts.onEmulatorClock(probe.at) <= probed[0]!.at) ?? ofCode[0]!;
      const sessions = probed.filter((call) => call.answer?.session_created).length;
      problems.push({
        label: `${after.scenario}: the agency exchanged the code after the probe "${after.variant}" (${probed.length} call(s) to POST /sessions besides the journey's own${sessions ? `, ${sessions} session(s) created` : ''})`,
        data: { exchanges: probed.map((call) => ({ status: call.status, answer: call.answer })) },
      });
      continue;
    }
    for (const probe of ofCode) {
      const { status, shows, title } = probe.page;
      const control = journey && controlOf(facts, probe, journey);
      const label = `${probe.scenario} (${probe.variant}): HTTP ${status}, the page shows ${shows.join(', ') || `"${title}"`}; ${control ?? 'no control: the transaction was not shown alive'}`;
      (control ? evidence : unproven).push({ label });
    }
  }
  if (problems.length) return fail(problems[0]!.label, [problems[0]!, ...problems.slice(1), ...unproven, ...evidence]);
  if (unproven.length) {
    return inconclusive(
      `not proven: ${unproven.length} of ${probes.length} probe(s) were refused on a transaction not shown alive (the callback opened as issued afterwards was not exchanged either), e.g. ${unproven[0]!.label}`,
      undefined,
      [...unproven, ...evidence],
    );
  }
  return pass(probes.length, `${probes.length} probe(s) rejected, each on a transaction shown alive: the code never reached the service from them`, evidence);
}

/** Why a refused probe's transaction was alive when it was refused, or undefined when nothing shows it. */
function controlOf(facts: RunFacts, probe: Probe, journey: JourneyFacts): string | undefined {
  const issued = issuedExchange(facts, journey);
  if (!issued?.answer?.session_created) return probe.fresh ? sibling(facts, journey) : undefined;
  const openedAt = (journey.completion?.at ?? journey.openedAt)!;
  if (probe.kind === 'replay') return openedAt < probe.at ? `control: the callback opened as issued before it was exchanged (HTTP ${issued.status})` : undefined;
  if (openedAt > probe.at) return `control: the same transaction opened as issued afterwards was exchanged (HTTP ${issued.status})`;
  return undefined;
}

/** A journey of the same scenario, started the same way and never probed, whose callback opened as issued was exchanged. */
function sibling(facts: RunFacts, probed: JourneyFacts): string | undefined {
  const control = facts.journeys.find(
    (other) => other !== probed && other.scenario === probed.scenario && !facts.probes.some((probe) => probe.scenario === other.scenario && probe.journey === other.journey && probe.kind !== 'replay')
      && issuedExchange(facts, other)?.answer?.session_created,
  );
  return control && `the probe was the first callback of a fresh transaction, and ${where(control)}, started the same way and not probed, was exchanged as issued (the agency may consume a transaction on a mismatched callback)`;
}
