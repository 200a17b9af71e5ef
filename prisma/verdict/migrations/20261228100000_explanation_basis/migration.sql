-- Explanations on demand (docs/verdicts.md "Explanations"): a blocked or approval_required
-- consultation keeps, beside its record and outside what is hashed and signed, what its explanation
-- reads that the record and the immutable rule versions do not (the overrides of its candidate rules,
-- a default_verdict other than allowed, the context_schema entries of their fields). NULL when there
-- is none. Records stop carrying `explanation`; GET .../consultations/<id>/explanation computes it.
-- Hand-written (ADR 0003).
ALTER TABLE consultations ADD COLUMN explanation_basis json;
