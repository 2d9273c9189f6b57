/**
 * PKCE and state. A rejection passes only on positive evidence: no exchange of that code reached
 * the service from the probe (so no session was created), the page says so, and the same run saw
 * a successful exchange, proving the harness would have seen one. @see spec §4.3 steps 3 to 6, §5 rule 4, §8
 */
import type { VerifierVerdict } from '../emulator/client.js';
import type { Probe, ProbeKind, RunFacts } from '../run/facts.js';
import { exchangesOf, journeyExchanges, successfulExchange, where } from './observed.js';
import { type Check, type Evidence, type Verdict, fail, pass } from './types.js';

const STATE = /^[A-Za-z0-9_-]{32,128}$/;
/** 43 to 128 unreserved characters: the emulator judges the characters, so it need not keep the verifier. */
const verifierOk = (verifier: VerifierVerdict) => verifier.unreserved && verifier.length >= 43 && verifier.length <= 128;

export const PKCE_CHECKS: Check[] = [
  {
    id: 'state.format',
    title: 'state is 32 to 128 base64url characters',
    group: 'pkce',
    spec: '§5 rule 4, §8',
    kind: 'can_fail',
    evaluate(facts) {
      const sent = facts.journeys.filter((journey) => journey.authorize?.state !== undefined);
      if (sent.length === 0) return undefined;
      const bad = sent.filter((journey) => !STATE.test(journey.authorize!.state!));
      const evidence = sent.map((journey) => ({ label: `${where(journey)}: ${journey.authorize!.state!.length} characters${STATE.test(journey.authorize!.state!) ? '' : ', not 32 to 128 base64url'}` }));
      return bad.length ? fail(`state of ${bad.length} journey(s) is ${bad[0]!.authorize!.state!.length} characters or not base64url`, evidence) : pass(`${sent.length} journeys, each state within the rule`, evidence);
    },
  },
  {
    id: 'state.browser_supplied_ignored',
    title: 'A state supplied by the browser is not used',
    group: 'pkce',
    spec: '§5 rule 4',
    kind: 'can_fail',
    evaluate(facts) {
      const supplied = facts.journeys.filter((journey) => journey.suppliedState);
      if (supplied.length === 0) return undefined;
      const used = supplied.filter((journey) => journey.authorize?.state === journey.suppliedState);
      const unsent = supplied.filter((journey) => !journey.authorize?.state);
      if (used.length) return fail('the agency sent the state the browser put in the callback URL to the authorize page', [{ label: `${where(used[0]!)}: authorize state = the supplied state` }]);
      if (unsent.length) return fail('after a state was supplied, the agency never sent the browser to authorize', [{ label: where(unsent[0]!) }]);
      return pass('the agency made its own state', supplied.map((journey) => ({ label: `${where(journey)}: a fresh state, not the supplied one` })));
    },
  },
  rejection('state.tampered_rejected', 'A callback with a tampered state is rejected', 'tampered_state', '§4.3 step 6'),
  rejection('state.unsolicited_rejected', 'An unsolicited callback (no journey started in this browser) is rejected', 'unsolicited', '§4.3 step 6'),
  rejection('state.replay_rejected', 'A replayed callback is rejected: the transaction is consumed once', 'replay', '§4.3 step 6, §5 rule 4'),
  rejection('state.cookie_required', 'A callback opened in another browser (without the cookie) is rejected', 'other_browser', '§4.3 steps 3 and 6'),
  {
    id: 'pkce.verifier_format',
    title: 'code_verifier is 43 to 128 unreserved characters',
    group: 'pkce',
    spec: '§5 rule 4, §8',
    kind: 'can_fail',
    evaluate(facts) {
      const verifiers = facts.journeys.flatMap((journey) => journeyExchanges(facts, journey).flatMap((call) => (call.verifier === undefined ? [] : [{ journey, verifier: call.verifier }])));
      if (verifiers.length === 0) return undefined;
      const describe = (verifier: VerifierVerdict) => `${verifier.length} characters${verifier.unreserved ? '' : ', not all unreserved'}`;
      const bad = verifiers.filter(({ verifier }) => !verifierOk(verifier));
      const evidence = verifiers.map(({ journey, verifier }) => ({ label: `${where(journey)}: ${describe(verifier)}${verifierOk(verifier) ? '' : ', outside the rule'}` }));
      return bad.length ? fail(`a code_verifier of ${describe(bad[0]!.verifier)} reached the service`, evidence) : pass(`${verifiers.length} verifiers, each within the rule`, evidence);
    },
  },
  {
    id: 'pkce.s256',
    title: 'code_challenge is the S256 of the verifier, with code_challenge_method=S256',
    group: 'pkce',
    spec: '§4.3 step 4',
    kind: 'can_fail',
    evaluate(facts) {
      const sent = facts.journeys.filter((journey) => journey.authorize);
      if (sent.length === 0) return undefined;
      const problems: string[] = [];
      const evidence: Evidence[] = sent.map((journey) => {
        const { method, challenge } = journey.authorize!;
        const verifier = journeyExchanges(facts, journey).find((call) => call.verifier !== undefined)?.verifier;
        const matches = verifier === undefined ? undefined : verifier.s256 === challenge;
        if (method !== 'S256') problems.push(`${where(journey)}: code_challenge_method=${method ?? '(none)'}`);
        else if (matches === false) problems.push(`${where(journey)}: the challenge is not BASE64URL(SHA256(verifier))`);
        return { label: `${where(journey)}: method ${method ?? '(none)'}${matches === undefined ? ', no exchange to compare' : matches ? ', challenge matches the verifier' : ', challenge does not match'}` };
      });
      const compared = evidence.filter((item) => item.label.includes('matches the verifier')).length;
      return problems.length ? fail(problems[0]!, evidence) : pass(`S256 on ${sent.length} journeys; ${compared} compared with the verifier the service received`, evidence);
    },
  },
  {
    id: 'pkce.fresh_per_journey',
    title: 'Every journey has its own state and verifier',
    group: 'pkce',
    spec: '§5 rule 4',
    kind: 'can_fail',
    evaluate(facts) {
      const sent = facts.journeys.filter((journey) => journey.authorize?.challenge);
      if (sent.length < 2) return undefined;
      const repeated = (values: Array<string | undefined>) => {
        const known = values.filter((value): value is string => Boolean(value));
        return known.length - new Set(known).size;
      };
      const verifiers = sent.map((journey) => journeyExchanges(facts, journey).find((call) => call.verifier)?.verifier?.s256);
      const counts = { challenges: repeated(sent.map((journey) => journey.authorize!.challenge)), states: repeated(sent.map((journey) => journey.authorize!.state)), verifiers: repeated(verifiers) };
      const evidence = [{ label: `${sent.length} journeys: ${counts.challenges} repeated challenge(s), ${counts.states} repeated state(s), ${counts.verifiers} repeated verifier(s)` }];
      if (counts.challenges || counts.verifiers) return fail(`${sent.length} journeys share code_verifiers: ${counts.challenges + counts.verifiers} repeats`, evidence);
      if (counts.states) return fail(`${counts.states} state value(s) repeated across journeys`, evidence);
      return pass(`${sent.length} journeys, no state or verifier repeated`, evidence);
    },
  },
];

function rejection(id: string, title: string, kind: ProbeKind, spec: string): Check {
  return {
    id, title, group: 'pkce', spec, kind: 'can_fail',
    evaluate(facts) {
      const probes = facts.probes.filter((probe) => probe.kind === kind);
      if (probes.length === 0) return undefined;
      return judgeRejections(facts, probes);
    },
  };
}

/**
 * Rejected = the page shows an error and the code reached the service only once, from the journey's
 * own browser opening the callback as issued: an exchange at any other time (however late) is the
 * probe's. Proven only when the run saw a successful exchange, this code's own at best.
 */
function judgeRejections(facts: RunFacts, probes: Probe[]): Verdict {
  const evidence: Evidence[] = [];
  const problems: string[] = [];
  let proof: { label: string } | undefined;
  for (const probe of probes) {
    const journey = facts.journey(probe.scenario, probe.journey);
    const exchanges = exchangesOf(facts, probe.codeSha);
    const issued = journey?.completion ? exchanges.find((call) => call.at >= journey.completion!.at - 50) : undefined;
    const probed = exchanges.filter((call) => call !== issued);
    const sessions = probed.filter((call) => call.answer?.session_created);
    const { status, markers } = probe.page;
    const shownError = (status ?? 200) >= 400 || markers.page === 'error' || markers.error !== undefined;
    evidence.push({
      label: `${probe.scenario}: ${probe.url} → HTTP ${status}${markers.error ? `, error "${markers.error}"` : ''}; ${probed.length} exchange(s) of its code reached the service besides the journey's own, ${sessions.length} session(s) created`,
      data: { exchanges: probed.map((call) => ({ status: call.status, answer: call.answer })) },
    });
    if (probed.length) problems.push(`the agency exchanged the code (${probed.length} call(s) to POST /sessions${sessions.length ? ', a session was created' : ''})`);
    else if (!shownError) problems.push(`the page shows no error (HTTP ${status}, page "${markers.page ?? '?'}")`);
    if (journey && issued?.answer?.session_created) proof ??= { label: `control: ${where(journey)}'s callback opened as issued was exchanged (HTTP ${issued.status}), so the harness sees this code's exchanges` };
  }
  if (problems.length) return fail(problems[0]!, evidence);
  const seen = successfulExchange(facts);
  proof ??= seen && { label: `control: ${where(seen.journey)}'s exchange was seen (HTTP ${seen.call.status})` };
  if (!proof) return fail('not proven: this run saw no successful exchange, so a missing exchange proves nothing', evidence);
  evidence.push(proof);
  return pass('rejected with an error page; the code never reached the service from the probe', evidence);
}
