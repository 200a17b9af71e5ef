// Names for the generated schemas of the ledger's internal API (generated/ledger-internal.ts, from
// apps/ledger/openapi.internal.json; docs/ledger-formats.md "Service seals").
import type { components } from './generated/ledger-internal';

type Schemas = components['schemas'];

/** One audit fact a service seals into `arbiter.<tenant_id>.<consultations|approvals|rules|keys>`. */
export type ServiceSeal = Schemas['ServiceSeal'];
/** POST /internal/v1/seals */
export type ServiceSealRequest = Schemas['ServiceSealRequest'];
/** Its answer: one result per seal, in request order. */
export type ServiceSealAnswer = Schemas['ServiceSealAnswer'];
export type ServiceSealResult = Schemas['ServiceSealResult'];
/** A seal that is in the ledger (`created` false: sealed before under its client_ref). */
export type ServiceSealed = Schemas['ServiceSealed'];
/** A seal the database refused on its own; the request's other seals are committed. */
export type ServiceSealRefused = Schemas['ServiceSealRefused'];
/** GET /internal/v1/inclusion: an audit fact found by client_ref, with its inclusion proof and checkpoint. */
export type AuditInclusion = Schemas['AuditInclusion'];
/** GET /internal/v1/tenants/{tenant_id}/facts/{fact_id}: a tenant's fact, its parent, its inclusion proof and checkpoint (docs/ledger-formats.md "Cited facts"). */
export type CitedFact = Schemas['CitedFact'];
/** GET /internal/v1/ledger-keys: the ledger's published Ed25519 keys (as GET /.well-known/ledger-keys). */
export type LedgerKeySet = Schemas['LedgerKeySet'];
/** One of them: an RFC 8037 JWK with its window. */
export type LedgerPublicKey = Schemas['LedgerPublicKey'];
/** A fact as the ledger shows it. */
export type LedgerFact = Schemas['Fact'];
