/**
 * Loads scenario files (`*.json`, one scenario each) from the built-in `scenarios/` folder and the
 * folders a user adds. A user's scenario with a built-in one's id replaces it; `disable` drops
 * scenarios by id. Every problem names the file and the field; unknown check ids, a duplicate id
 * within the same source and a disabled id nobody uses are errors too.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { HarnessError } from '../errors.js';
import { packageRoot } from '../paths.js';
import { type Scenario, ScenarioSchema } from './schema.js';

export const BUILT_IN_SCENARIOS = join(packageRoot(), 'scenarios');

export interface LoadedScenarios {
  scenarios: Scenario[];
  /** What the user changed about the built-in set, for the report's notes. */
  notes: string[];
}

/** The first folder is the built-in one; later folders may replace its scenarios. */
export function loadScenarios(directories: readonly string[], knownChecks: ReadonlySet<string>, disable: readonly string[] = []): LoadedScenarios {
  const byId = new Map<string, { scenario: Scenario; file: string; folder: number }>();
  const notes: string[] = [];
  directories.forEach((directory, folder) => {
    let names: string[];
    try {
      names = readdirSync(directory).filter((name) => name.endsWith('.json')).sort();
    } catch {
      throw new HarnessError(`the scenario folder ${directory} cannot be read: check the path given in "scenarios" of the config`);
    }
    for (const name of names) {
      const file = resolve(directory, name);
      const scenario = loadScenarioFile(file, knownChecks);
      const earlier = byId.get(scenario.id);
      if (earlier && (earlier.folder > 0 || folder === 0)) throw new HarnessError(`${file}: the scenario id "${scenario.id}" is already used by ${earlier.file}`);
      if (earlier) notes.push(`scenario ${scenario.id} is replaced by ${file}`);
      byId.set(scenario.id, { scenario, file, folder });
    }
  });
  for (const id of disable) {
    if (!byId.delete(id)) throw new HarnessError(`"disable_scenarios" of the config names ${id}, which no scenario has: \`harness scenarios\` lists them`);
    notes.push(`scenario ${id} is disabled by the config`);
  }
  return { scenarios: [...byId.values()].map((entry) => entry.scenario), notes };
}

export function loadScenarioFile(file: string, knownChecks: ReadonlySet<string>): Scenario {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new HarnessError(`${file}: not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  const parsed = ScenarioSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new HarnessError(`${file}: ${issue.path.join('.') || '(file)'}: ${issue.message}`);
  }
  const unknown = parsed.data.feeds.filter((id) => !knownChecks.has(id));
  if (unknown.length > 0) throw new HarnessError(`${file}: feeds names unknown check ${unknown.map((id) => `"${id}"`).join(', ')}; \`harness checks\` lists them`);
  return parsed.data;
}
