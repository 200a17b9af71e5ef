// CEL conditions of overrides (docs/registry.md "Overrides", docs/verdicts.md "Overrides"; ADR 0007).
export {
  activationOf,
  CelConditionError,
  compileCondition,
  conditionProblem,
  MAX_CONDITION_INPUT,
  MAX_CONDITION_LENGTH,
  type CelCondition,
  type CelOutcome,
} from './condition';
export { conditionPaths } from './paths';
