import type { Rule } from 'eslint';

export const timerWritesRule: Rule.RuleModule;
