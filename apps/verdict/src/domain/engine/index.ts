// The rule engine of the verdict gateway (docs/verdicts.md): pure functions, no I/O.
// compilePolicy once per tenant snapshot, evaluate per check or resolve call.
export { compilePolicy, DEFAULT_VERDICT, SEVERITIES, type CompiledPolicy } from './compile';
export { evaluate, resolvedTargetId, type OneShotApproval } from './evaluate';
export { PolicyCompileError, type PolicyCompileErrorCode } from './errors';
export { benchmarkFixture, type BenchmarkFixture } from './fixtures';
export type * from './types';
