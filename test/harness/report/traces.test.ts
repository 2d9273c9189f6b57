import { expect, test } from 'vitest';
import type { Scenario } from '../../../harness/scenarios/schema.js';
import { scenariosBehindFailure } from '../../../harness/report/traces.js';

const feeders = ['production-won', 'state-tampered', 'state'].map((id) => ({ id }) as Scenario);
const ids = (scenarios: Scenario[]) => scenarios.map((scenario) => scenario.id);

test('a failed check links the traces of the scenarios its violation names, not of every scenario feeding it (issue 26 item 8)', () => {
  expect(ids(scenariosBehindFailure('state-tampered/state-missing: the callback answered 200 instead of redirecting', feeders))).toEqual(['state-tampered']);
  expect(ids(scenariosBehindFailure('state: the page after the callback still carries journey parameters', feeders))).toEqual(['state']);
});

test('a reason that names no scenario links them all', () => {
  expect(ids(scenariosBehindFailure('the agency sent no Cache-Control header', feeders))).toEqual(['production-won', 'state-tampered', 'state']);
});
