export type OverrideStatus = 'active' | 'expired' | 'revoked' | 'invalid_conditions';

/**
 * An override's status is computed when read (docs/registry.md "Overrides"): revoked, else
 * invalid_conditions when its conditions can never hold (they do not parse as CEL, or a conditional
 * override has none), else expired once `expires_at` has passed, else active. Only active overrides
 * have an effect.
 */
export function overrideStatus(
  row: { revoked_at: Date | null; expires_at: Date | null; conditions_error?: string | null },
  now: Date,
): OverrideStatus {
  if (row.revoked_at) return 'revoked';
  if (row.conditions_error) return 'invalid_conditions';
  if (row.expires_at && row.expires_at.getTime() <= now.getTime()) return 'expired';
  return 'active';
}
