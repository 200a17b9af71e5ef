// The rule engine (docs/verdicts.md): pure functions, no I/O. One implementation of the rule
// semantics, used by the verdict gateway, the registry's write-time checks and the CLI.
// compilePolicy once per tenant snapshot, evaluate per check or resolve call.
export {
  BUDGET_CHECK_EVERY,
  checkDeadline,
  clockMs,
  deadlineIn,
  earlier,
  EvaluationBudgetExceededError,
  type BudgetKind,
  type Deadline,
} from './budget';
export { compilePolicy, DEFAULT_VERDICT, SEVERITIES, tenantPolicyProblem, type CompiledPolicy } from './compile';
export { ruleVerdict, ruleVerdictProblem } from './severities';
export { actionGoverned, evaluate, leavesMarks, proceeds, resolvedTargetId, windowPlan, type OneShotApproval } from './evaluate';
export { exceeds } from './decimal';
export { RunningWindow } from './running-window';
export { WindowLedger, type GivenBack, type TakeResult } from './window-ledger';
export { limitEntries, needsThatFit, recordedStates, windowStates } from './window-states';
export { decideWithLedger, type LedgerDecision } from './window-replay';
export {
  explain,
  MAX_ALTERNATIVES,
  type Explanation,
  type ExplanationAlternative,
  type ExplanationChange,
  type ExplanationRequirement,
  type NotInvertible,
} from './explain';
export { factContradictingParameters, valueAtPath } from './field-path';
export {
  feedsMisnamedField,
  isParametersFactName,
  PROTOTYPE_MEMBER,
  reservedParameterMember,
  reservedValueMember,
} from './request-refusals';
export { jsonEqual } from './values';
export { PolicyCompileError, type PolicyCompileErrorCode } from './errors';
export { compileGlob, compileGlobList, type StringMatcher } from './glob';
export { isLedgerSourceEntry, LEDGER_SOURCE, LEDGER_SOURCE_PREFIX, sourceEntryProblem } from './sources';
export { scopeContains, selectorProblems, type ScopeSchema } from './selector';
export { conditionProblem, requirementProblems, RULE_LIMITS, ruleLimitProblems, ruleProblems, type RuleFields } from './validate';
export { engineRule, normaliseAppliesTo, ruleContent, type RuleBodyFields, type RuleContentOf, type RulePlacement } from './rule-content';
export {
  APPROVAL_FIELD_LIMITS,
  APPROVAL_SEVERITY,
  approvalFieldProblems,
  approvalFields,
  approvalTerms,
  isEscalationDecider,
  namesPrincipal,
  isExpired,
  rulesAwaitingApproval,
  rulesCountedFor,
  triggerTerms,
  type ApprovalFields,
  type ApprovalFieldsInput,
  type ApprovalTerms,
  type TriggerTerms,
  type TriggerVersion,
} from './approval-terms';
export type * from './types';
export {
  isKeyPath,
  isParameterPath,
  parameterField,
  limitProblems,
  limitSpec,
  priorProblems,
  priorSpec,
  WINDOW_LIMITS,
  WINDOW_SEVERITIES,
  windowFieldProblems,
  windowMs,
  type LimitEntry,
  type LimitSpec,
  type LimitState,
  type PriorMark,
  type PriorNeed,
  type PriorSpec,
  type PriorState,
  type WindowFieldsInput,
  type WindowNeed,
  type WindowPlan,
  type WindowStates,
} from './window-rules';
