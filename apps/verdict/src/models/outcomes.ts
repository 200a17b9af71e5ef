// The outcome a caller reports of its consultation (docs/verdicts.md "Windows and outcomes"); tsoa validates
// the body and writes both shapes into openapi.json.

/** POST /<tenant_id>/v1/consultations/<consultation_id>/outcome. */
export interface OutcomeBody {
  /** `false`: the operation was not carried out, and what the consultation consumed in its windows is given back. */
  executed: boolean;
}

/** A window amount given back (the window's rule, its key, its length as written, the amount). */
export interface GivenBackAmount {
  rule_id: string;
  /** The rule's `by` paths and the consultation's values on them, as RFC 8785 canonical JSON. */
  key: string;
  window: string;
  amount: number;
}

export interface ConsultationOutcome {
  consultation_id: string;
  executed: boolean;
  /**
   * With `executed: false`, the amounts given back to the windows they were still in (an amount that had
   * already left its window is not listed: giving it back changes nothing); the consultation's marks for
   * `requires_prior` rules are withdrawn too. Empty with `executed: true`.
   */
  given_back: GivenBackAmount[];
  /** When the outcome was first reported (ISO 8601). */
  reported_at: string;
}
