/** How often one version of a shadow rule disagreed with the verdict (docs/verdicts.md "Shadow rules"). */
export interface ShadowVersionDisagreements {
  /** `rv-` */
  rule_version_id: string;
  /** Consultations whose record names this version in `shadow`. */
  disagreements: number;
  /** requested_at of the latest of them. */
  last_at: string;
}

/** GET /internal/v1/tenants/{tenant_id}/rules/{rule_id}/shadow: a rule's disagreements, by version. */
export interface ShadowDisagreements {
  tenant_id: string;
  /** `rul-` */
  rule_id: string;
  /** The sum over `by_version`. */
  disagreements: number;
  /** Versions with at least one disagreement, by their first disagreement, oldest first. */
  by_version: ShadowVersionDisagreements[];
}
