// Friendly names for the generated schema types (src/generated/*.ts is regenerated from the committed
// OpenAPI documents; these aliases keep SDK users' code stable when the generator's layout changes).
import type { components as VerdictComponents, operations as VerdictOperations } from './generated/verdict';
import type { components as LedgerComponents } from './generated/ledger';
import type { components as RegistryComponents } from './generated/registry';

export type { paths as VerdictGeneratedPaths } from './generated/verdict';
export type { paths as LedgerPaths } from './generated/ledger';
export type { paths as RegistryPaths } from './generated/registry';

type V = VerdictComponents['schemas'];
type L = LedgerComponents['schemas'];
type R = RegistryComponents['schemas'];

// --- verdict (docs/verdicts.md) ---
export type Fact = V['Fact'];
export type Context = V['Context'];
export type Requirement = V['Requirement'];
export type ScopeFields = V['ScopeFields'];
export type CheckRequest = V['CheckRequest'];
export type CheckResponse = V['CheckResponse'];
export type ResolveRequest = V['ResolveRequest'];
export type OverviewResolveRequest = V['OverviewResolveRequest'];
export type ResolveResponse = V['ResolveResponse'];
export type IncompleteResolveResponse = V['IncompleteResolveResponse'];
export type CompleteResolveResponse = V['CompleteResolveResponse'];
export type OverviewIncompleteResponse = V['OverviewIncompleteResponse'];
export type OverviewCompleteResponse = V['OverviewCompleteResponse'];
export type ConsultationRecord = V['ConsultationRecord'];
/**
 * A consultation read by id: the record as hashed and, for a `read` key, `sensitive_values` beside it (each value, or
 * `erased`; docs/verdicts.md "Sensitive fields"). Leave `sensitive_values` out when recomputing normative_hash.
 */
export type ConsultationRead = V['ConsultationRead'];
/** An erasure of a data subject (docs/operations.md "Erasure"). */
export type Erasure = V['Erasure'];
export type ErasureList = V['ErasureList'];
export type ConsultationList = V['ConsultationList'];
export type RuleVersion = V['RuleVersion'];
export type VerificationKey = V['VerificationKey'];
export type KeySet = V['KeySet'];
export type SigningKeyRotation = V['SigningKeyRotation'];
export type Identity = V['Identity'];
export type VerdictErrorBody = V['ErrorBody'];
/** What would make a blocked or approval_required operation allowed (docs/verdicts.md "Explanations"). */
export type Explanation = V['Explanation'];
/** GET /<tenant>/v1/consultations/<id>/explanation: the consultation's explanation, computed from its record (null for other verdicts). */
export type ConsultationExplanation = V['ConsultationExplanation'];
/** GET /<tenant>/v1/consultations/<id>/evidence: where the consultation is sealed, with its inclusion proof. */
export type ConsultationEvidence = V['ConsultationEvidence'];
/** POST /<tenant>/v1/simulations (docs/verdicts.md "Simulation"): proposed changes, the window, how many samples. */
export type SimulationRequest = V['SimulationRequest'];
export type SimulationChange = V['SimulationChange'];
/** What the changes would have done to the window's consultations: counts, transitions, samples. */
export type SimulationResult = V['SimulationResult'];

// --- windows (docs/verdicts.md "Budgets, rates and sequences", "Windows and outcomes") ---
/** A window an answer read: the rule, the window's key (canonical JSON of its `by` values), what it held before and after. */
export type LimitEntry = V['LimitRecordEntry'];
/** POST /<tenant>/v1/consultations/<id>/outcome: whether the operation the answer allowed was carried out. */
export type OutcomeReport = V['OutcomeBody'];
/** What a report of `executed: false` gave back to one window. */
export type GivenBack = V['GivenBackAmount'];
/** The answer to an outcome report (the same again for the same report). */
export type ConsultationOutcome = V['ConsultationOutcome'];
/** The record's `limits` and the answers' (present only when a rule with a window was consulted). */
export type WithLimits<T> = T & { limits?: LimitEntry[] };

// --- ledger (docs/ledger-formats.md) ---
export type LedgerFact = L['Fact'];
export type LedgerFactListEntry = L['FactListEntry'];
export type LedgerFactList = L['FactList'];
export type SealFactBody = L['SealFactBody'];
export type ProofBundle = L['ProofBundle'];
export type LedgerPublicKey = L['LedgerPublicKey'];
export type LedgerKeySet = L['LedgerKeySet'];
/** A rotation of the ledger's key ring, signed by the retired key and the new one (docs/ledger-formats.md "Key transitions"). */
export type LedgerKeyTransition = L['LedgerKeyTransition'];
export type LedgerKeyRotation = L['KeyRotation'];
export type StreamVerification = L['VerificationResult'];
/** A signed tree head of a stream (docs/evidence.md "Checkpoints"). */
export type LedgerCheckpoint = L['Checkpoint'];
/** GET /facts/{fact_id}/inclusion: the RFC 9162 audit path of a fact's leaf in the tree of tree_size leaves. */
export type LedgerInclusionProof = L['InclusionProof'];
/** GET /streams/{stream_id}/consistency?from=M&to=N. */
export type LedgerConsistencyProof = L['ConsistencyProof'];

// --- registry (docs/registry.md) ---
export type WebhookKeySet = R['WebhookKeySet'];
export type WebhookPublicKey = R['WebhookPublicKey'];
export type WebhookKeyRotation = R['WebhookKeyRotation'];
export type Scope = R['Scope'];
export type ScopeDetails = R['ScopeDetails'];
/** A rule with the content of its current version (docs/registry.md "Rules and versions"). */
export type Rule = R['Rule'];
/** POST and PUT body of a rule; PUT replaces the content (omitted optional fields take their defaults). */
export type RuleBody = R['RuleBody'];
export type RuleStatusFilter = 'active' | 'archived' | 'all';
/** A version of a registry rule (`GET /scopes/{id}/rules/{rule_id}/versions`); `RuleVersion` is the verdict service's view. */
export type RegistryRuleVersion = R['RuleVersion'];
/** A shadow rule's disagreements with recorded verdicts (docs/verdicts.md "Shadow rules"). */
export type RuleShadowReport = R['RuleShadowReport'];
/** A registry approval (docs/approvals.md "The registry flow"); `Approval` is the verdict service's. */
export type RegistryApproval = R['Approval'];

export type Approval = V['Approval'];
export type ApprovalGrant = V['ApprovalGrant'];
export type ApprovalList = V['ApprovalList'];
export type CreateApprovalBody = V['CreateApprovalBody'];
export type DecideApprovalBody = V['DecisionBody'];
export type ApprovalListQuery = NonNullable<VerdictOperations['ListApprovals']['parameters']['query']>;

/** Rotation modes of every service's signing keys (docs/verdicts.md "Signing keys"). */
export type RotationMode = 'scheduled' | 'emergency';
