/** Where the bench finds the package it measures (from dist/bench/ at run time). */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const DEFAULT_FIXTURE_PATH = join(ROOT, 'fixtures', 'default.json');
export const CLI_PATH = join(ROOT, 'dist', 'emulator', 'cli.js');
export const STAND_IN_PATH = join(ROOT, 'dist', 'bench', 'start-server.js');
export const BASELINE_STARTER_PATH = join(ROOT, 'dist', 'bench', 'start-baseline.js');
export const RESULTS_DIR = join(ROOT, 'bench-results');
