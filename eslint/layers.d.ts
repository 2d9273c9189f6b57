import type { Rule } from 'eslint';

export const LAYERS: string[][];
export const HARNESS_READS: string;
export function layerOf(path: string): number | undefined;
export const layersRule: Rule.RuleModule;
