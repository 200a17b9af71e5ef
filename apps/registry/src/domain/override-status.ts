/**
 * An override's status is computed when read (DESIGN.md section 6): revoked, else expired once
 * `expires_at` has passed, else active. Only active overrides have an effect.
 */
export function overrideStatus(row: { revoked_at: Date | null; expires_at: Date | null }, now: Date): 'active' | 'expired' | 'revoked' {
  if (row.revoked_at) return 'revoked';
  if (row.expires_at && row.expires_at.getTime() <= now.getTime()) return 'expired';
  return 'active';
}
