import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { CheckReport } from '../checks/evaluate.js';
import type { ScenarioRun } from '../run/scenario-run.js';
import type { Scenario } from '../scenarios/schema.js';
import { inert } from './escape.js';
import type { ReportFolder } from './folder.js';
import { scenariosBehindFailure } from './traces.js';

/**
 * Evidence JSON for every check that did not pass, and the Playwright traces of scenarios behind
 * failed checks, written to the staged folder; every evidence path then names the report folder.
 */
export function keepEvidence(checks: CheckReport[], scenarios: readonly Scenario[], runs: Map<string, ScenarioRun>, folder: ReportFolder): void {
  const { staging, final } = folder;
  for (const item of checks.flatMap((check) => check.evidence)) if (item.path) item.path = join(final, relative(staging, item.path));
  const kept = new Set<string>();
  mkdirSync(join(staging, 'evidence'), { recursive: true });
  for (const check of checks) {
    if (check.status === 'fail') {
      for (const scenario of scenariosBehindFailure(check.reason, scenarios.filter((candidate) => candidate.feeds.includes(check.id)))) {
        for (const trace of runs.get(scenario.id)?.traces ?? []) {
          const name = trace.split('/').at(-1)!;
          if (!kept.has(trace)) {
            try {
              renameSync(trace, join(staging, 'traces', name));
            } catch {
              continue;
            }
            kept.add(trace);
          }
          check.evidence.push({ label: `Playwright trace of ${scenario.id}`, path: join(final, 'traces', name) });
        }
      }
    }
    if (check.status === 'pass') continue;
    writeFileSync(join(staging, 'evidence', `${check.id}.json`), `${JSON.stringify(inert({ id: check.id, title: check.title, status: check.status, reason: check.reason, evidence: check.evidence }), null, 2)}\n`);
    check.evidence.unshift({ label: 'evidence file', path: join(final, 'evidence', `${check.id}.json`) });
  }
  rmSync(join(staging, 'traces', '.pending'), { recursive: true, force: true });
}
