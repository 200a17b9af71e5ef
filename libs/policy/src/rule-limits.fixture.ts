// Test data: a rule at every bound of RULE_LIMITS (docs/verdicts.md "Rule limits"), none over.
import type { EngineRule } from './types';
import { RULE_LIMITS } from './validate';

/** The worst glob the limits accept: 64 wildcards, `?` pieces, 500 characters. */
export const WORST_GLOB = `${'*a'.repeat(32)}${'?'.repeat(32)}`.padEnd(RULE_LIMITS.globLength, 'b');

export const RULE_AT_LIMITS = {
  applies_to: {
    actions: Array.from({ length: RULE_LIMITS.globsPerList }, (_, i) => `act.${i}.*`),
    resources: [WORST_GLOB, ...Array.from({ length: RULE_LIMITS.globsPerList - 1 }, (_, i) => `res:${i}`)],
  },
  conditions: [
    { field: 'f'.repeat(RULE_LIMITS.fieldLength), op: 'in', value: Array.from({ length: RULE_LIMITS.listValues }, (_, i) => i) },
    { field: 'g', op: 'eq', value: 'x'.repeat(RULE_LIMITS.valueJsonLength - 2) },
    ...Array.from({ length: RULE_LIMITS.conditions - 2 }, () => ({ field: 'h', op: 'exists' as const })),
  ],
  requires: Array.from({ length: RULE_LIMITS.requires }, (_, i) => ({ field: `r${i}`, type: 'string' as const })),
} satisfies Partial<EngineRule>;
