import type { Fact } from './ledger';
import type { Checkpoint } from './proofs';

/**
 * Shapes of the ledger's internal API (docs/ledger-formats.md "Internal API"), documented in
 * apps/ledger/openapi.internal.json (tsoa.internal.json), never in the public openapi.json.
 */

/** One audit fact a service seals (docs/ledger-formats.md "Service seals"). */
export interface ServiceSeal {
  /**
   * `arbiter.<tenant_id>.consultations`, `arbiter.<tenant_id>.approvals` or `arbiter.<tenant_id>.rules`, with this seal's own tenant_id.
   * @minLength 1
   * @maxLength 128
   */
  stream_id: string;
  /**
   * The tenant the fact belongs to (it owns the stream).
   * @minLength 1
   * @maxLength 128
   */
  tenant_id: string;
  /**
   * The sealing service, `service:verdict` or `service:registry`.
   * @minLength 1
   * @maxLength 256
   */
  actor: string;
  /** A JSON object: at most 65536 bytes as canonical JSON, nested at most 32 deep, every string storable. */
  custom_payload: { [key: string]: unknown };
  /**
   * The entity id (consultation id, rule version id, `<approval_id>:<decision>`): a seal repeated under it answers the original fact.
   * @minLength 1
   * @maxLength 255
   */
  client_ref: string;
}

/** POST /internal/v1/seals: 1 to 1000 seals, all valid or none sealed. */
export interface ServiceSealRequest {
  /**
   * @minItems 1
   * @maxItems 1000
   */
  seals: ServiceSeal[];
}

/** A seal that is in the ledger: sealed now (`created` true) or earlier under the same client_ref (false). */
export interface ServiceSealed {
  ok: true;
  /** `fct-` prefix */
  fact_id: string;
  stream_id: string;
  /**
   * The fact's position in its stream, from 1 (its `sequence`).
   * @isInt
   */
  seq: number;
  fact_hash: string;
  created: boolean;
}

/** A seal the database refused on its own (the request's other seals are committed). */
export interface ServiceSealRefused {
  ok: false;
  /**
   * The status a single seal would have got: 400 for values the database cannot store, 500 otherwise.
   * @isInt
   */
  status: number;
  /** The ledger's error code (VALIDATION_ERROR, INTERNAL_ERROR). */
  code: string;
  message: string;
}

export type ServiceSealResult = ServiceSealed | ServiceSealRefused;

/** One result per seal, in request order. */
export interface ServiceSealAnswer {
  results: ServiceSealResult[];
}

/** GET /internal/v1/inclusion: a fact found by its client_ref, with its inclusion proof (docs/evidence.md "Evidence of a consultation"). */
export interface AuditInclusion {
  /** The fact, as GET /facts/{fact_id} shows it. */
  fact: Fact;
  /** @isInt */
  leaf_index: number;
  /** @isInt */
  tree_size: number;
  inclusion_path: string[];
  checkpoint: Checkpoint;
}

/**
 * GET /internal/v1/tenants/{tenant_id}/facts/{fact_id}: one of the tenant's facts with what proves it
 * (docs/ledger-formats.md "Cited facts"): the fact before it in its stream, and its inclusion proof
 * under a checkpoint signed now. The verdict gateway checks all of it before a Fact may cite it.
 */
export interface CitedFact {
  /** The fact, as GET /facts/{fact_id} shows it. */
  fact: Fact;
  /** The fact before it in its stream (its fact_hash is the fact's prev_hash); null for a stream's first fact. */
  parent: Fact | null;
  /** @isInt */
  leaf_index: number;
  /** @isInt */
  tree_size: number;
  inclusion_path: string[];
  checkpoint: Checkpoint;
}
