import type { Rule } from 'eslint';

export const WRITERS: Record<string, string>;
export const MIGRATION_FILES: string[];
export const tableWritersRule: Rule.RuleModule;
