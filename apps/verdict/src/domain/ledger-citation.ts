// Facts the ledger vouches for (docs/verdicts.md "Facts the ledger vouches for"): a context Fact whose
// source is `ledger:<fact_id>` cites a fact the caller's tenant sealed in the ledger. Pure: what a
// citation names, whether the ledger's answer about the fact proves it (checked here, independently of
// the ledger's own checks), whether the cited value is the Fact's, and the Fact the engine then sees.
import { GENESIS_PREV_HASH, ledgerFactHash, verifyCheckpoint } from '@arbiter/client';
import { digestBytes, factLeaf, isDigestText, verifyInclusion } from '@arbiter/merkle';
import { isLedgerSourceEntry, jsonEqual, LEDGER_SOURCE, LEDGER_SOURCE_PREFIX, valueAtPath, type Fact } from '@arbiter/policy';

/** The source a verified citation gives its Fact: what rules name in `acceptable_sources` (libs/policy sources.ts). */
export { LEDGER_SOURCE };
/** A citing Fact's source: this prefix, then the fact id. */
export const LEDGER_CITATION_PREFIX = LEDGER_SOURCE_PREFIX;
/** docs/ledger-formats.md "Conventions": `fct-` and 24 lowercase hex digits. */
const FACT_ID = /^fct-[0-9a-f]{24}$/;
/** At most this many distinct ledger facts per request: each may cost the gateway a ledger call. */
export const MAX_CITED_FACTS = 32;

/** What the record keeps of a citation (the consultation record's `ledger_citations`). */
export interface LedgerCitation {
  fact_id: string;
  fact_hash: string;
  stream_id: string;
  /** The principal that sealed it, as the ledger authenticated it (covered by fact_hash). */
  sealed_by: string;
  /** The dot path into the fact's custom_payload the Fact's value was read at. */
  payload_path: string;
}

/** Why a citation is refused: `details.reason` of 400 invalid_ledger_citation. */
export type CitationProblem =
  | 'not_a_citation'
  | 'too_many_citations'
  | 'fact_not_found'
  | 'proof_invalid'
  | 'self_sealed'
  | 'sealer_unknown'
  | 'path_not_found'
  | 'value_mismatch'
  | 'contradicted';

/** Who asks: the caller's principal and the principal it says it acts for (check / resolve `on_behalf_of`). */
export interface CitingParty {
  principalId: string;
  onBehalfOf?: string | null;
}

/** A context Fact as the gateway reads it: the contract's members plus payload_path. */
export type CitingFact = Fact & { payload_path?: string };

/**
 * Whether a Fact's source claims the ledger: `ledger` itself (which only a verified citation may give
 * a Fact) or `ledger:…`. Such a Fact is either a valid citation or refused.
 */
export function claimsLedger(source: string): boolean {
  return source === LEDGER_SOURCE || source.startsWith(LEDGER_CITATION_PREFIX);
}

/** The fact id a `ledger:<fact_id>` source names, or null when the source is no well-formed citation. */
export function citedFactId(source: string): string | null {
  if (!source.startsWith(LEDGER_CITATION_PREFIX)) return null;
  const id = source.slice(LEDGER_CITATION_PREFIX.length);
  return FACT_ID.test(id) ? id : null;
}

/** The path the value is read at: payload_path, else the context field's own name. */
export const payloadPathOf = (field: string, fact: CitingFact): string => fact.payload_path ?? field;

/** A ledger fact as the internal API shows it (the members the checks read). */
export interface LedgerFactView {
  fact_id: string;
  stream_id: string;
  tenant_id: string;
  actor: string;
  /** The authenticated sealer; null (or absent, from an older ledger) for a fact sealed before the ledger recorded it. */
  sealed_by?: string | null;
  sealed_at_ms: number;
  custom_payload: Record<string, unknown>;
  fact_hash: string;
  prev_hash: string;
  parent_fact_id: string | null;
  sequence: number;
}

/** The ledger's answer about a cited fact (GET /internal/v1/tenants/{tenant_id}/facts/{fact_id}). */
export interface CitedFactProof {
  fact: LedgerFactView;
  parent: LedgerFactView | null;
  leaf_index: number;
  tree_size: number;
  inclusion_path: string[];
  checkpoint: Record<string, unknown> & { root_hash: string; tree_size: number };
}

/**
 * Checks the ledger's answer about `factId` of `tenantId` on its own (docs/verdicts.md "Facts the ledger
 * vouches for"): the fact is that one, of that tenant; its fact_hash recomputes from its members
 * (docs/ledger-formats.md "fact_hash"); its prev_hash is its parent's recomputed hash (the genesis value
 * for a stream's first fact); its leaf leads up the inclusion path to the checkpoint's root (RFC 9162
 * section 2.1.3.2); the checkpoint is of its stream and size and signed by a published ledger key valid
 * when it was made (docs/evidence.md "Checkpoints"). Answers null when all hold, else what does not.
 */
export function proofProblem(proof: CitedFactProof, keys: unknown, tenantId: string, factId: string): string | null {
  try {
    const { fact, parent } = proof;
    if (!fact || fact.fact_id !== factId) return `the ledger answered about another fact (${String(fact?.fact_id)})`;
    if (fact.tenant_id !== tenantId) return `the fact belongs to another tenant`;
    if (!isDigestText(fact.fact_hash) || ledgerFactHash(fact as never, fact as never, fact.prev_hash) !== fact.fact_hash) {
      return 'the fact does not hash to its fact_hash';
    }
    if (parent === null) {
      if (fact.sequence !== 1 || fact.parent_fact_id !== null || fact.prev_hash !== GENESIS_PREV_HASH)
        return 'the fact has no parent but is not the first of its stream';
    } else {
      if (
        parent.fact_id !== fact.parent_fact_id ||
        parent.stream_id !== fact.stream_id ||
        parent.tenant_id !== tenantId ||
        parent.sequence !== fact.sequence - 1
      ) {
        return 'the parent the ledger gave is not the fact before it in its stream';
      }
      if (ledgerFactHash(parent as never, parent as never, parent.prev_hash) !== parent.fact_hash || parent.fact_hash !== fact.prev_hash) {
        return "the fact's prev_hash is not its parent's hash";
      }
    }
    if (!Number.isSafeInteger(proof.leaf_index) || proof.leaf_index !== fact.sequence - 1 || !(proof.leaf_index < proof.tree_size)) {
      return `leaf_index ${String(proof.leaf_index)} is not the fact's position in a tree of ${String(proof.tree_size)}`;
    }
    const checkpoint = verifyCheckpoint(proof.checkpoint, keys, { streamId: fact.stream_id, treeSize: proof.tree_size });
    if (!checkpoint.valid)
      return `the checkpoint does not verify: ${checkpoint.checks
        .filter((c) => c.status === 'fail')
        .map((c) => c.message)
        .join('; ')}`;
    if (!Array.isArray(proof.inclusion_path) || !proof.inclusion_path.every(isDigestText))
      return 'the inclusion path is not a list of sha256 digests';
    const included = verifyInclusion(
      proof.leaf_index,
      proof.tree_size,
      factLeaf(fact.fact_hash),
      proof.inclusion_path.map(digestBytes),
      digestBytes(proof.checkpoint.root_hash),
    );
    return included ? null : "the inclusion path does not lead from the fact's leaf to the checkpoint's root";
  } catch (err) {
    return `the ledger's answer cannot be checked: ${(err as Error).message}`;
  }
}

/**
 * Whether the cited fact's sealer may vouch for the caller (docs/verdicts.md "Facts the ledger vouches for"):
 * never the caller's own principal, nor the principal it acts for, and never a fact whose sealer the
 * ledger did not record (sealed before it did): such a fact cannot show it is not the caller's own.
 */
export function sealerProblem(sealedBy: string | null | undefined, party: CitingParty): 'self_sealed' | 'sealer_unknown' | null {
  if (typeof sealedBy !== 'string' || sealedBy === '') return 'sealer_unknown';
  if (sealedBy === party.principalId || (party.onBehalfOf !== undefined && party.onBehalfOf !== null && sealedBy === party.onBehalfOf))
    return 'self_sealed';
  return null;
}

/** Whether the cited fact's payload holds the Fact's value at the path: null when it does, else the problem. */
export function valueProblem(payload: Record<string, unknown>, path: string, value: unknown): 'path_not_found' | 'value_mismatch' | null {
  const cited = valueAtPath(payload, path);
  if (cited === undefined) return 'path_not_found';
  return jsonEqual(cited, value) ? null : 'value_mismatch';
}

/** How many values of a cited payload citationContradiction compares at most (a payload is at most what a seal carries). */
const MAX_COMPARED = 1000;

/**
 * Where the request contradicts a fact it cites (docs/verdicts.md "Facts the ledger vouches for"): a fact vouches for
 * its whole payload, not for one value torn out of it. The citation of `payloadPath` for the Fact `field` lines the
 * payload up with the request where the two paths end alike (`customer.kyc_level` cited at `customer.kyc_level`: the
 * payload stands at the request's root; `kyc.level` at `result.level`: the payload's `result` stands at the
 * request's `kyc`); every other value the payload holds there must be the one the request gives at the same path
 * (a Fact keyed by it, else the parameters), when it gives one. Otherwise the fact is about something else: the KYC
 * level of one customer cited for the payout of another. Paths that end differently line nothing up. Returns the
 * first contradicting request path with both values, or null.
 */
export function citationContradiction(
  payload: unknown,
  field: string,
  payloadPath: string,
  context: Readonly<Record<string, { value?: unknown }>>,
  parameters: Readonly<Record<string, unknown>>,
): { path: string; request: unknown; fact: unknown } | null {
  const k = field.split('.');
  const p = payloadPath.split('.');
  let shared = 0;
  while (shared < k.length && shared < p.length && k[k.length - 1 - shared] === p[p.length - 1 - shared]) shared++;
  if (shared === 0) return null;
  const at = k.slice(0, k.length - shared);
  const base = p.length > shared ? valueAtPath(payload, p.slice(0, p.length - shared).join('.')) : payload;
  let compared = 0;
  const walk = (value: unknown, rel: string[]): { path: string; request: unknown; fact: unknown } | null => {
    if (compared >= MAX_COMPARED) return null;
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      for (const [name, inner] of Object.entries(value)) {
        const found = walk(inner, [...rel, name]);
        if (found) return found;
      }
      return null;
    }
    compared++;
    const segments = [...at, ...rel];
    const path = segments.join('.');
    if (path === field) return null;
    const fact = Object.prototype.hasOwnProperty.call(context, path) ? context[path] : undefined;
    const given = fact && fact.value !== undefined ? fact.value : valueAtPath(parameters, path);
    return given === undefined || jsonEqual(given, value) ? null : { path, request: given, fact: value };
  };
  return walk(base, []);
}

/**
 * The context the engine evaluates: a cited field's Fact becomes `{source: "ledger", verification_status:
 * "verified", ledger_stream}` with the caller's value, confidence and as_of, `ledger_stream` being the
 * cited fact's stream (what `acceptable_sources: ["ledger:<stream glob>"]` matches); every other Fact is
 * as sent. Only fields whose citation the gateway verified are in `citations`, so nothing else can
 * become a ledger Fact.
 */
export function engineContext(
  context: Record<string, CitingFact>,
  citations: Readonly<Record<string, Pick<LedgerCitation, 'stream_id'>>> | null | undefined,
): Record<string, Fact> {
  if (!citations) return context;
  const cited = Object.keys(citations).filter((field) => Object.prototype.hasOwnProperty.call(context, field));
  if (cited.length === 0) return context;
  const out: Record<string, Fact> = { ...context };
  for (const field of cited) {
    const { payload_path: _path, source: _source, verification_status: _status, ...rest } = context[field];
    out[field] = { ...rest, source: LEDGER_SOURCE, verification_status: 'verified', ledger_stream: citations[field].stream_id };
  }
  return out;
}

/**
 * Whether a (merged) Requirement's provenance constraint is one a verified ledger citation meets: it asks
 * for a verified Fact, and its `acceptable_sources`, when given, name `ledger` or a `ledger:<stream glob>`
 * (then a citation of a fact in a matching stream).
 */
export function ledgerCitationMeets(r: { source_requirement?: string; acceptable_sources?: readonly string[] | null }): boolean {
  const constrained = r.source_requirement === 'verified' || Array.isArray(r.acceptable_sources);
  return constrained && (!r.acceptable_sources || r.acceptable_sources.some(isLedgerSourceEntry));
}
