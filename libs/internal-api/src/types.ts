// Names for the generated schemas (generated/registry-internal.ts, from apps/registry/openapi.internal.json).
import type { components } from './generated/registry-internal';

type Schemas = components['schemas'];

/** GET /internal/v1/tenants/{tenant_id}/state: everything the verdict gateway evaluates a check against. */
export type TenantState = Schemas['TenantState'];
/** GET /internal/v1/tenants/{tenant_id}/state-hash */
export type StateHash = Schemas['StateHash'];
export type TenantSettings = Schemas['TenantSettings'];
export type ScopeState = Schemas['ScopeState'];
export type RuleState = Schemas['RuleState'];
export type InvariantState = Schemas['InvariantState'];
export type OverrideState = Schemas['OverrideState'];
export type PrincipalState = Schemas['PrincipalState'];
export type ScopeValue = Schemas['ScopeValue'];
export type ScopeSelector = Schemas['ScopeSelector'];
export type ScopeFieldSchema = Schemas['ScopeFieldSchema'];
export type ConditionRow = Schemas['ConditionRow'];
export type Requirement = Schemas['Requirement'];
export type Severity = Schemas['Severity'];
export type InternalRuleVersion = Schemas['InternalRuleVersion'];
export type TenantRef = Schemas['TenantRef'];
export type IntrospectionAnswer = Schemas['IntrospectionAnswer'];
export type IntrospectedIdentity = Schemas['Identity'];
export type ApprovalGrantBody = Schemas['ApprovalGrantBody'];
export type Override = Schemas['Override'];
export type ForeignEventBody = Schemas['ForeignEventBody'];
export type RegistryEvent = Schemas['RegistryEvent'];
export type RelayAnswer = Schemas['RelayAnswer'];
export type ReleaseAnswer = Schemas['ReleaseAnswer'];
export type AttemptReport = Schemas['AttemptReport'];
export type NotificationAttemptReport = Schemas['NotificationAttemptReport'];
/** The seal outbox (docs/operations.md "Seal relay"): the same shapes on the registry and the verdict gateway. */
export type SealLease = Schemas['SealLease'];
export type LeasedSeal = Schemas['LeasedSeal'];
export type SealRequest = Schemas['SealRequest'];
export type SealDoneAnswer = Schemas['SealDoneAnswer'];
export type SealReleaseAnswer = Schemas['SealReleaseAnswer'];
/** Partition maintenance (docs/operations.md "Partitions"): the same shapes on the registry and the verdict gateway. */
export type MaintenancePartitionsAnswer = Schemas['MaintenancePartitionsAnswer'];
export type DuePartition = Schemas['DuePartition'];
export type PartitionDropAnswer = Schemas['PartitionDropAnswer'];
export type RetentionsInUse = Schemas['RetentionsInUse'];

/**
 * Redis pub/sub channel on which the registry announces each committed change, so the verdict
 * gateway refreshes its snapshot (docs/registry.md "Redis channel `arbiter:registry:changed`").
 */
export const REGISTRY_CHANGED_CHANNEL = 'arbiter:registry:changed';

/** One message per committed change. */
export interface RegistryChangeMessage {
  tenant_id: string;
  /** The tenant's revision after the change (GET /internal/v1/tenants/{id}/state-hash reports it too). */
  revision: number;
  /** Events written by the change, oldest first (empty for identity changes). */
  event_ids: string[];
  types: string[];
  scope_ids: string[];
}
/** GET /internal/v1/maintenance/partitions/{partition}/tenants (docs/operations.md "Archive"). */
export type PartitionTenantsAnswer = Schemas['PartitionTenantsAnswer'];
/** POST /internal/v1/maintenance/partitions/{partition}/segments */
export type ArchiveSegmentRecord = Schemas['ArchiveSegmentRecord'];
export type RecordSegmentAnswer = Schemas['RecordSegmentAnswer'];
