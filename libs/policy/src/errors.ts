/** Stable error codes of the rule engine's compiler. */
export type PolicyCompileErrorCode = 'invalid_rule' | 'invalid_override' | 'duplicate_rule' | 'invalid_policy';

/**
 * Thrown by compilePolicy when a rule, override or setting cannot be evaluated as written. Compiling
 * fails closed: the caller keeps its previous snapshot instead of evaluating a partial rule set.
 */
export class PolicyCompileError extends Error {
  override readonly name = 'PolicyCompileError';
  readonly code: PolicyCompileErrorCode;
  /** Id of the offending rule or override, when there is one. */
  readonly subject: string | null;

  constructor(code: PolicyCompileErrorCode, message: string, subject: string | null = null) {
    super(subject ? `${subject}: ${message}` : message);
    this.code = code;
    this.subject = subject;
  }
}
