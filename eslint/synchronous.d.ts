import type { Linter } from 'eslint';

export const REQUEST_PATH_FILES: string[];
export const BACKGROUND_USE_CASES: string[];
export const synchronousRequestPath: Linter.RuleEntry;
