// The tenant audit streams the services seal into (docs/evidence.md "Audit streams"), as a verifier names them.

/** The actor of the verdict service's seals. */
export const VERDICT_SEAL_ACTOR = 'service:verdict';

/**
 * `sealed_by` of every fact a service seals (docs/ledger-formats.md "sealed_by"): the principal the ledger
 * authenticated, where `actor` is only what the sealer said. Facts sealed before the ledger recorded sealers
 * have none.
 */
export const SERVICE_SEALER = 'service:internal';

/** The stream a tenant's consultations are sealed into. */
export const consultationStreamOf = (tenantId: string) => `arbiter.${tenantId}.consultations`;

/** The stream every change of a tenant's verdict key ring is sealed into (docs/ledger-formats.md "The keys stream"). */
export const keysStreamOf = (tenantId: string) => `arbiter.${tenantId}.keys`;
