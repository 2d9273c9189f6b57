/**
 * Loads scenario files (`*.json`, one scenario each) from the built-in `scenarios/` folder and the
 * folders a user adds. Every problem names the file and the field; unknown check ids and duplicate
 * scenario ids are errors too.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { HarnessError } from '../errors.js';
import { packageRoot } from '../paths.js';
import { type Scenario, ScenarioSchema } from './schema.js';

export const BUILT_IN_SCENARIOS = join(packageRoot(), 'scenarios');

export function loadScenarios(directories: readonly string[], knownChecks: ReadonlySet<string>): Scenario[] {
  const scenarios: Scenario[] = [];
  const origin = new Map<string, string>();
  for (const directory of directories) {
    let names: string[];
    try {
      names = readdirSync(directory).filter((name) => name.endsWith('.json')).sort();
    } catch {
      throw new HarnessError(`the scenario folder ${directory} cannot be read: check the path given in "scenarios" of the config`);
    }
    for (const name of names) {
      const file = resolve(directory, name);
      const scenario = loadScenarioFile(file, knownChecks);
      const earlier = origin.get(scenario.id);
      if (earlier) throw new HarnessError(`${file}: the scenario id "${scenario.id}" is already used by ${earlier}`);
      origin.set(scenario.id, file);
      scenarios.push(scenario);
    }
  }
  return scenarios;
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
