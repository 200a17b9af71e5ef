// The services' audit streams (docs/ledger-formats.md "Service seals"): every stream whose id starts
// with `arbiter.` is written by the Arbiter services alone, through the internal API; a tenant key
// may read these streams but never seal into them.

export const AUDIT_STREAM_PREFIX = 'arbiter.';

/**
 * The audit streams of a tenant: `arbiter.<tenant_id>.<kind>`. `keys` holds every change of the tenant's
 * verdict key ring (docs/ledger-formats.md "The keys stream"), so a verifier's trusted keys extend through it.
 */
export const AUDIT_STREAM_KINDS = ['consultations', 'approvals', 'rules', 'keys'] as const;

const AUDIT_STREAM = new RegExp(`^arbiter\\.(.+)\\.(${AUDIT_STREAM_KINDS.join('|')})$`);

export type AuditStreamKind = (typeof AUDIT_STREAM_KINDS)[number];

/** The id of a tenant's audit stream, the one place the services spell it. */
export function auditStreamId(tenantId: string, kind: AuditStreamKind): string {
  return `${AUDIT_STREAM_PREFIX}${tenantId}.${kind}`;
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
