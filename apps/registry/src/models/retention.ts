/**
 * How long a tenant's data is kept (docs/operations.md "Retention"): durations, an integer and s, m, h or d
 * (`90d`, `12h`, `2m`), each within the platform's RETENTION_MIN and RETENTION_MAX. A change applies to what is
 * written from then on; what was written before keeps the retention it was written under.
 */
export interface RetentionSettings {
  /**
   * Consultation records (default 90d).
   * @example "90d"
   * @pattern ^[1-9][0-9]{0,9}[smhd]$
   */
  consultations?: string;
  /**
   * Webhook deliveries and their attempts (default 30d).
   * @example "30d"
   * @pattern ^[1-9][0-9]{0,9}[smhd]$
   */
  deliveries?: string;
  /**
   * Registry events, approval events included (default 90d).
   * @example "90d"
   * @pattern ^[1-9][0-9]{0,9}[smhd]$
   */
  events?: string;
}

/** The retentions in use across tenants, defaults included, in milliseconds: where rows written now land. */
export interface RetentionsInUse {
  consultations: number[];
  deliveries: number[];
  events: number[];
}
