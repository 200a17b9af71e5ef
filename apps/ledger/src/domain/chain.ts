import { canonicalJson, isCanonicalText, type CanonicalText } from '@arbiter/canonical';
import { computeFactHash, GENESIS_PREV_HASH } from './fact-hash';

/** A fact as stored, with its payload as the stored JSON text. */
export interface StoredFact {
  fact_id: string;
  stream_id: string;
  tenant_id: string;
  seq: number;
  actor: string;
  /** The authenticated principal that sealed the fact; null for facts sealed before the ledger recorded it. */
  sealed_by: string | null;
  sealed_at_ms: number;
  payload_text: string;
  prev_hash: string;
  fact_hash: string;
  parent_fact_id: string | null;
}

export interface StreamHead {
  stream_id: string;
  tenant_id: string;
  head_seq: number;
  head_fact_id: string | null;
  head_hash: string;
}

/** Where and why a chain breaks; `fact_id` names the fact where it does. */
export interface ChainBreak {
  fact_id: string;
  position: number;
  reason: string;
}

/**
 * Walks one stream's chain fact by fact, in order, keeping only the previous link: memory stays
 * constant however long the stream (docs/ledger-formats.md "Endpoints and bodies"). Checks, per fact: its position
 * follows the previous one (a deleted fact leaves a gap), it links to the previous fact by
 * prev_hash and parent_fact_id (a reordered fact links to the wrong one), it belongs to the
 * stream's tenant, and its fact_hash is the hash of its content (an edited payload, actor, time or
 * hash shows here). finish() then checks the walk reached the stream's head (a truncated tail).
 */
export class ChainWalk {
  private verified = 0;
  private prevHash: string = GENESIS_PREV_HASH;
  private prevId: string | null = null;

  constructor(private readonly head: StreamHead) {}

  get factsVerified(): number {
    return this.verified;
  }

  /** The hash and id of the last fact verified (the genesis hash before any). */
  get last(): { fact_id: string | null; fact_hash: string } {
    return { fact_id: this.prevId, fact_hash: this.prevHash };
  }

  check(f: StoredFact): ChainBreak | null {
    const expected = this.verified + 1;
    const broken = (reason: string): ChainBreak => ({ fact_id: f.fact_id, position: f.seq, reason });
    if (f.seq !== expected) {
      return broken(`the fact at position ${expected} is missing (the next stored fact is at position ${f.seq})`);
    }
    if (f.stream_id !== this.head.stream_id || f.tenant_id !== this.head.tenant_id) {
      return broken("its stream or tenant differs from the stream's");
    }
    if (f.prev_hash !== this.prevHash || f.parent_fact_id !== this.prevId) {
      return broken(
        this.prevId === null
          ? 'it is first in the stream but does not link to the genesis hash'
          : `it does not link to the previous fact ${this.prevId} (prev_hash or parent_fact_id differs)`,
      );
    }
    // The stream and tenant are the head's (checked above).
    if (contentHash(f) !== f.fact_hash) return broken('its content does not match its fact_hash');
    this.verified = expected;
    this.prevHash = f.fact_hash;
    this.prevId = f.fact_id;
    return null;
  }

  /** After the last fact: the walk must end exactly at the stream's head. */
  finish(): ChainBreak | null {
    const { head_seq, head_fact_id, head_hash } = this.head;
    if (this.verified === head_seq && this.prevId === head_fact_id && this.prevHash === head_hash) return null;
    if (this.verified < head_seq) {
      return {
        fact_id: head_fact_id ?? '(none)',
        position: head_seq,
        reason: `the stream head is at position ${head_seq} but the stored chain ends at position ${this.verified}`,
      };
    }
    return { fact_id: this.prevId ?? '(none)', position: this.verified, reason: "it does not match the stream's recorded head" };
  }
}

export function describeBreak(b: ChainBreak): string {
  return `chain broken at fact ${b.fact_id} (position ${b.position}): ${b.reason}`;
}

/**
 * The hash of a stored fact's content, recomputed from its payload as an outside verifier working from
 * API output does: the stored text is parsed and written again in RFC 8785 form, so a semantically
 * equal rewrite (whitespace, key order) verifies, and text that is not JSON breaks the chain. Text
 * that is canonical already (what the ledger stores) would be written again as it is: it is hashed
 * as it is, without the parse and the rewrite (libs/canonical isCanonicalText).
 */
function contentHash(f: StoredFact): string | null {
  let payload: CanonicalText;
  if (isCanonicalText(f.payload_text)) payload = f.payload_text;
  else {
    try {
      payload = canonicalJson(JSON.parse(f.payload_text));
    } catch {
      return null;
    }
  }
  return computeFactHash(f, payload);
}
