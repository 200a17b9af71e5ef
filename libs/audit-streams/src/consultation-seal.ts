// The custom_payload of a consultation's seal in `arbiter.<tenant_id>.consultations` (docs/evidence.md
// "Audit streams"): written by the verdict gateway with each record, recomputed from the record by every
// verifier (an evidence pack's check, the completeness audit), so the two cannot disagree.

/** The members of a consultation record its seal names. */
export interface ConsultationSealSource {
  id: string;
  normative_hash: string;
  context_hash: string;
  verdict: string;
  signing_kid: string;
  requested_at: string;
}

/** What the ledger holds for a consultation; `decided_at` is the record's `requested_at`, as stored. */
export interface ConsultationSealPayload {
  consultation_id: string;
  normative_hash: string;
  context_hash: string;
  verdict: string;
  signing_kid: string;
  decided_at: string;
}

/** The seal payload of a consultation, its members in this order (JSON.stringify keeps it). */
export function consultationSealPayload(record: ConsultationSealSource): ConsultationSealPayload {
  return {
    consultation_id: record.id,
    normative_hash: record.normative_hash,
    context_hash: record.context_hash,
    verdict: record.verdict,
    signing_kid: record.signing_kid,
    decided_at: record.requested_at,
  };
}
