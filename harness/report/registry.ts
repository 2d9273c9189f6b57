/** Reporters by their `--format` name, and the multiplexer that calls them. */
import type { ScenarioOutcome } from '../run/facts.js';
import type { Scenario } from '../scenarios/schema.js';
import { inert, showControls } from './escape.js';
import { jsonReporter, junitReporter } from './files.js';
import { htmlReporter } from './html.js';
import { markdownReporter } from './markdown.js';
import { textReporter } from './text.js';
import type { Report, Reporter, ReporterOptions, RunMeta } from './types.js';

export const REPORTERS = { text: textReporter, json: jsonReporter, junit: junitReporter, html: htmlReporter, markdown: markdownReporter } as const satisfies Record<string, (options: ReporterOptions) => Reporter>;

export type Format = keyof typeof REPORTERS;
export const FORMATS = Object.keys(REPORTERS) as Format[];

export function isFormat(name: string): name is Format {
  return name in REPORTERS;
}

/**
 * Calls every reporter's hook (none once the run is interrupted); one that throws is named on stderr and the run goes on. The one door
 * to every report: what the hooks receive has its control characters shown escaped (escape.ts).
 */
export function multiplex(reporters: ReadonlyArray<readonly [string, Reporter]>, stderr: NodeJS.WritableStream, interrupted?: AbortSignal): Required<Reporter> {
  const each = async (hook: keyof Reporter, call: (reporter: Reporter) => unknown) => {
    // An interrupted run says nothing more: its scenarios end because the browser went, not because of the agency.
    if (interrupted?.aborted) return;
    for (const [name, reporter] of reporters) {
      if (!reporter[hook]) continue;
      try {
        await call(reporter);
      } catch (error) {
        stderr.write(`[harness] the ${name} reporter failed in ${hook}: ${showControls(error instanceof Error ? error.message : String(error))}\n`);
      }
    }
  };
  return {
    onBegin: (meta: RunMeta, scenarios: readonly Scenario[], checks: number) => void each('onBegin', (reporter) => reporter.onBegin!(inert(meta), inert(scenarios), checks)),
    onScenarioBegin: (scenario: Scenario) => void each('onScenarioBegin', (reporter) => reporter.onScenarioBegin!(inert(scenario))),
    onScenarioEnd: (outcome: ScenarioOutcome) => void each('onScenarioEnd', (reporter) => reporter.onScenarioEnd!(inert(outcome))),
    onEnd: (report: Report) => each('onEnd', (reporter) => reporter.onEnd!(inert(report))),
  };
}
