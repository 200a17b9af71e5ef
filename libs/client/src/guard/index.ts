export { guardCall, type GuardClient, type GuardOptions, type GuardProgress } from './guard';
export { describeOutcome, mayRun, type GuardedCall, type GuardOutcome, type RefusalReason } from './outcome';
export { argumentFacts } from './argument-facts';
export { PendingApprovals, pendingApprovalsOf } from './pending-approvals';
