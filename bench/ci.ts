/**
 * The project's CI suite's duration, as `.ci/run` measured it (issue 25: at most 10 minutes on 2
 * cores). The bench only prints it: `.ci/run` writes bench-results/ci-run.json when it ends.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RESULTS_DIR } from './paths.js';

export interface CiRun {
  at: string;
  commit: string;
  seconds: number;
  passed: number;
  failed: number;
  cpus: number;
}

export const CI_RUN_PATH = join(RESULTS_DIR, 'ci-run.json');

export function readCiRun(path = CI_RUN_PATH): CiRun | undefined {
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as CiRun;
  } catch {
    return undefined;
  }
}
