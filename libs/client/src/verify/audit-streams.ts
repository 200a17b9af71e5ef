// The tenant audit streams the services seal into (docs/evidence.md "Audit streams"), as a verifier names
// them: the writers' own definitions (libs/audit-streams, bundled into the package), so the verifier cannot
// expect another stream or actor than the services write. Re-declared here over those values (same types),
// because the published declarations may not name a workspace package.
import { auditStreamId, SERVICE_SEALER as SERVICES_SEALER, VERDICT_SEAL_ACTOR as VERDICT_ACTOR } from '@arbiter/audit-streams';

/** The actor of the verdict service's seals. */
export const VERDICT_SEAL_ACTOR = VERDICT_ACTOR;

/**
 * `sealed_by` of every fact a service seals (docs/ledger-formats.md "sealed_by"): the principal the ledger
 * authenticated, where `actor` is only what the sealer said. Facts sealed before the ledger recorded sealers
 * have none.
 */
export const SERVICE_SEALER = SERVICES_SEALER;

/** The stream a tenant's consultations are sealed into. */
export const consultationStreamOf = (tenantId: string): string => auditStreamId(tenantId, 'consultations');

/** The stream every change of a tenant's verdict key ring is sealed into (docs/ledger-formats.md "The keys stream"). */
export const keysStreamOf = (tenantId: string): string => auditStreamId(tenantId, 'keys');
