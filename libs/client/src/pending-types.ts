// HAND-WRITTEN, TEMPORARY: the evidence-chain routes (Merkle checkpoints and proofs on the ledger, a
// consultation's evidence on the verdict service) as their contract fixes them, written before the
// services' OpenAPI documents describe them. Once apps/ledger/openapi.json and apps/verdict/openapi.json
// have these routes, `npm run generate` puts them in src/generated/*.ts: then alias the four types below
// to the generated schemas in types.ts, delete the two Pending*Paths and this file.

/** A signed tree head of one ledger stream (RFC 9162 section 2.1; docs/evidence.md). */
export interface LedgerCheckpoint {
  stream_id: string;
  tree_size: number;
  /** `sha256:<64 hex>`: the Merkle tree hash of the stream's first tree_size fact leaves. */
  root_hash: string;
  created_at_ms: number;
  key_id: string;
  signature_alg: 'Ed25519';
  /** base64 Ed25519 signature over the RFC 8785 form of the checkpoint without `signature`. */
  signature: string;
}

/** GET /facts/{fact_id}/inclusion: the audit path of a fact's leaf in the tree of tree_size leaves. */
export interface LedgerInclusionProof {
  fact_id: string;
  leaf_index: number;
  tree_size: number;
  inclusion_path: string[];
  checkpoint: LedgerCheckpoint;
}

/** GET /streams/{stream_id}/consistency?from=M&to=N. */
export interface LedgerConsistencyProof {
  from: number;
  to: number;
  consistency_path: string[];
}

/** GET /<tenant>/v1/consultations/<id>/evidence: where the consultation is sealed, with its inclusion proof. */
export interface ConsultationEvidence {
  consultation_id: string;
  ledger: {
    stream_id: string;
    fact_id: string;
    fact_hash: string;
    leaf_index: number;
    tree_size: number;
    inclusion_path: string[];
    checkpoint: LedgerCheckpoint;
  };
}

// --- the routes, in the shape openapi-typescript generates, merged into the clients' path types ---

interface ErrorContent {
  headers: { [name: string]: unknown };
  content: { 'application/json': { code: string; message: string; details?: unknown } };
}

interface JsonGet<Path, Query, Body> {
  parameters: { query?: Query; header?: never; path: Path; cookie?: never };
  requestBody?: never;
  responses: { 200: { headers: { [name: string]: unknown }; content: { 'application/json': Body } }; 400: ErrorContent; 404: ErrorContent; 409: ErrorContent };
}

interface PathItem<Get> {
  parameters: { query?: never; header?: never; path?: never; cookie?: never };
  get: Get;
  put?: never;
  post?: never;
  delete?: never;
  options?: never;
  head?: never;
  patch?: never;
  trace?: never;
}

export interface PendingLedgerPaths {
  '/streams/{stream_id}/checkpoint': PathItem<JsonGet<{ stream_id: string }, { tree_size?: number }, LedgerCheckpoint>>;
  '/facts/{fact_id}/inclusion': PathItem<JsonGet<{ fact_id: string }, { tree_size?: number }, LedgerInclusionProof>>;
  '/streams/{stream_id}/consistency': PathItem<JsonGet<{ stream_id: string }, { from: number; to: number }, LedgerConsistencyProof>>;
}

export interface PendingVerdictPaths {
  '/{tenant_id}/v1/consultations/{consultation_id}/evidence': PathItem<JsonGet<{ tenant_id: string; consultation_id: string }, never, ConsultationEvidence>>;
}

