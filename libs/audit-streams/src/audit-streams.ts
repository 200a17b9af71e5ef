// The services' audit streams (docs/ledger-formats.md "Service seals"; docs/evidence.md "Audit streams"):
// every stream whose id starts with `arbiter.` is written by the Arbiter services alone, through the
// internal API; a tenant key may read these streams but never seal into them. The writers (the verdict
// gateway, the registry, the ledger's checks) and the verifiers (the SDK and the CLI) name them here.

export const AUDIT_STREAM_PREFIX = 'arbiter.';

/**
 * The audit streams of a tenant: `arbiter.<tenant_id>.<kind>`. `keys` holds every change of the tenant's
 * verdict key ring (docs/ledger-formats.md "The keys stream"), so a verifier's trusted keys extend through it.
 * `archives` holds the manifests of archive segments and `erasures` the erasures of data subjects
 * (docs/operations.md).
 */
export const AUDIT_STREAM_KINDS = ['consultations', 'approvals', 'rules', 'keys', 'archives', 'erasures'] as const;

export type AuditStreamKind = (typeof AUDIT_STREAM_KINDS)[number];

const AUDIT_STREAM = new RegExp(`^arbiter\\.(.+)\\.(${AUDIT_STREAM_KINDS.join('|')})$`);

/**
 * The text around the tenant id in the id of a tenant's audit stream of this kind: the id is
 * `prefix + tenant_id + suffix`. For SQL that builds the id from a tenant column (`$1 || tenant_id || $2`).
 */
export function auditStreamAffixes(kind: AuditStreamKind): { prefix: string; suffix: string } {
  return { prefix: AUDIT_STREAM_PREFIX, suffix: `.${kind}` };
}

/** The id of a tenant's audit stream. */
export function auditStreamId(tenantId: string, kind: AuditStreamKind): string {
  const { prefix, suffix } = auditStreamAffixes(kind);
  return `${prefix}${tenantId}${suffix}`;
}

/**
 * Whether a stream is reserved to the services: any id under the prefix, well-formed or not, in any
 * case (`ARBITER.x`, `Arbiter.x`), so that no tenant stream can pass for an audit stream.
 */
export function isReservedStream(streamId: string): boolean {
  return streamId.slice(0, AUDIT_STREAM_PREFIX.length).toLowerCase() === AUDIT_STREAM_PREFIX;
}

/** The tenant an audit stream id names, or null when the id is not `arbiter.<tenant_id>.<kind>`. */
export function auditStreamTenant(streamId: string): string | null {
  return AUDIT_STREAM.exec(streamId)?.[1] ?? null;
}

/** The `actor` of the verdict gateway's seals: consultations, its approval decisions, key ring changes. */
export const VERDICT_SEAL_ACTOR = 'service:verdict';

/** The `actor` of the registry's seals: rule versions and its approval decisions. */
export const REGISTRY_SEAL_ACTOR = 'service:registry';

/**
 * `sealed_by` of every fact a service seals (docs/ledger-formats.md "sealed_by"): the principal the ledger
 * authenticated, where `actor` is only what the sealer said. What a request on the internal API proves is
 * the services' shared token, not which service holds it.
 */
export const SERVICE_SEALER = 'service:internal';
