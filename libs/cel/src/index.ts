// CEL conditions of overrides (DESIGN: docs/registry.md "Conditional overrides"; ADR 0007).
export { activationOf, CelConditionError, compileCondition, conditionProblem, MAX_CONDITION_LENGTH, type CelCondition, type CelOutcome } from './condition';
export { conditionPaths } from './paths';
