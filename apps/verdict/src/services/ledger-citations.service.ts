import type { TenantId } from '@arbiter/auth';
import { AppError } from '@arbiter/http';
import { LedgerUnavailableError, type CitedFact, type LedgerKeySet } from '@arbiter/internal-api';
import {
  citationContradiction,
  citedFactId,
  claimsLedger,
  MAX_CITED_FACTS,
  payloadPathOf,
  proofProblem,
  sealerProblem,
  valueProblem,
  type CitationProblem,
  type CitedFactProof,
  type CitingFact,
  type CitingParty,
  type LedgerCitation,
} from '../domain/ledger-citation';

/** Where the ledger's answers come from (LedgerInternalClient.citedFact and ledgerKeys). */
export interface CitationSource {
  /** The tenant's fact with its parent and inclusion proof; null when the tenant has none of that id. */
  citedFact(tenantId: string, factId: string): Promise<CitedFact | null>;
  ledgerKeys(): Promise<LedgerKeySet>;
}

/** A gateway started without LEDGER_URL: every citation answers 503 ledger_unavailable (never verified). */
export const unconfiguredCitationSource: CitationSource = {
  citedFact: () => Promise.reject(new LedgerUnavailableError('ledger_unavailable', 'LEDGER_URL is not set')),
  ledgerKeys: () => Promise.reject(new LedgerUnavailableError('ledger_unavailable', 'LEDGER_URL is not set')),
};

/** What a verified fact leaves in the cache: enough to check its sealer and values and to record the citation. */
interface VerifiedFact {
  fact_id: string;
  fact_hash: string;
  stream_id: string;
  /** null: sealed before the ledger recorded sealers. */
  sealed_by: string | null;
  custom_payload: Record<string, unknown>;
}

export interface LedgerCitationsOptions {
  /** Verified facts kept (least recently used goes first). Default 1000. */
  cacheSize?: number;
  /** How long the ledger's key set is used before it is read again, in ms. Default 5 minutes. */
  keysTtlMs?: number;
  now?: () => number;
}

/** The citations of a context: the verified ones by context field, or null when it has none. */
export type VerifiedCitations = Record<string, LedgerCitation> | null;

/**
 * Verifies the ledger citations of a context before it is evaluated (docs/verdicts.md "Facts the ledger
 * vouches for"): each `ledger:<fact_id>` Fact must name a fact of the caller's tenant whose proof holds
 * (domain/ledger-citation.ts), sealed by a principal other than the caller and the principal it acts
 * for, and whose payload holds the Fact's value. Any other Fact claiming the ledger, a fact not found,
 * a proof, sealer or value that does not hold: 400 invalid_ledger_citation naming the field. A ledger
 * that cannot be asked: 503 ledger_unavailable (fail closed, nothing is verified).
 *
 * Facts are immutable, so a verified (tenant, fact id) is kept in a bounded cache and checked again
 * without the ledger; a fact not found is never cached (it may be sealed a moment later). The sealer is
 * checked on every call, against that call's caller, whether the fact came from the cache or not.
 */
export class LedgerCitationsService {
  private readonly verified = new Map<string, VerifiedFact>();
  private readonly cacheSize: number;
  private readonly keysTtlMs: number;
  private readonly now: () => number;
  private keys: { set: LedgerKeySet; at: number } | null = null;
  private keysReading: Promise<LedgerKeySet> | null = null;

  constructor(
    private readonly ledger: CitationSource,
    opts: LedgerCitationsOptions = {},
  ) {
    this.cacheSize = opts.cacheSize ?? 1000;
    this.keysTtlMs = opts.keysTtlMs ?? 300_000;
    this.now = opts.now ?? Date.now;
  }

  /** Facts held in the cache (observability, tests). */
  get cached(): number {
    return this.verified.size;
  }

  /** The verified citations of `context`, by field, for `party`; null when no Fact cites the ledger. Throws as above. */
  async verify(
    tenantId: TenantId,
    context: Readonly<Record<string, CitingFact>>,
    party: CitingParty,
    parameters: Readonly<Record<string, unknown>> = {},
  ): Promise<VerifiedCitations> {
    const wanted = new Map<string, string[]>();
    for (const field of Object.keys(context)) {
      const source = context[field].source;
      if (!claimsLedger(source)) continue;
      const factId = citedFactId(source);
      if (!factId) {
        throw refused(
          field,
          'not_a_citation',
          null,
          source === 'ledger'
            ? 'source ledger is given only to a verified citation: cite the fact as ledger:<fact_id>'
            : `${source} is not ledger:<fact_id> with a fact id fct-<24 hex>`,
        );
      }
      wanted.set(factId, [...(wanted.get(factId) ?? []), field]);
    }
    if (wanted.size === 0) return null;
    if (wanted.size > MAX_CITED_FACTS) {
      const field = [...wanted.values()][MAX_CITED_FACTS][0];
      throw refused(field, 'too_many_citations', null, `a request may cite at most ${MAX_CITED_FACTS} ledger facts`);
    }
    const facts = await Promise.all(
      [...wanted].map(async ([factId, fields]) => [await this.fact(tenantId, factId, fields[0]), fields] as const),
    );
    const out: Record<string, LedgerCitation> = {};
    for (const [fact, fields] of facts) {
      const sealer = sealerProblem(fact.sealed_by, party);
      if (sealer === 'self_sealed') {
        throw refused(
          fields[0],
          sealer,
          fact.fact_id,
          `ledger fact ${fact.fact_id} was sealed by ${fact.sealed_by}, the caller or the principal it acts for: a caller cannot vouch for itself`,
        );
      }
      if (sealer)
        throw refused(
          fields[0],
          sealer,
          fact.fact_id,
          `ledger fact ${fact.fact_id} was sealed before the ledger recorded who seals: it cannot show it is not the caller's own`,
        );
      for (const field of fields) {
        const path = payloadPathOf(field, context[field]);
        const problem = valueProblem(fact.custom_payload, path, context[field].value);
        if (problem === 'path_not_found')
          throw refused(field, problem, fact.fact_id, `ledger fact ${fact.fact_id} has no value at ${path}`);
        if (problem) throw refused(field, problem, fact.fact_id, `the value is not the one ledger fact ${fact.fact_id} holds at ${path}`);
        const contradiction = citationContradiction(fact.custom_payload, field, path, context, parameters);
        if (contradiction)
          throw refused(
            field,
            'contradicted',
            fact.fact_id,
            `the request gives ${JSON.stringify(contradiction.request)} at ${contradiction.path}, where ledger fact ${fact.fact_id} holds ${JSON.stringify(contradiction.fact)}: a cited fact vouches for its whole payload`,
          );
        out[field] = {
          fact_id: fact.fact_id,
          fact_hash: fact.fact_hash,
          stream_id: fact.stream_id,
          sealed_by: fact.sealed_by as string,
          payload_path: path,
        };
      }
    }
    return out;
  }

  /** The fact, verified: from the cache, or asked of the ledger and checked. */
  private async fact(tenantId: TenantId, factId: string, field: string): Promise<VerifiedFact> {
    const key = `${tenantId}/${factId}`;
    const hit = this.verified.get(key);
    if (hit) {
      // Least recently used first: a hit moves to the end.
      this.verified.delete(key);
      this.verified.set(key, hit);
      return hit;
    }
    const answer = await unavailableAs503(this.ledger.citedFact(tenantId, factId));
    if (!answer) throw refused(field, 'fact_not_found', factId, `the tenant has no ledger fact ${factId}`);
    const proof = answer as unknown as CitedFactProof;
    let problem = proofProblem(proof, await this.keySet(String(proof.checkpoint?.key_id), false), tenantId, factId);
    // A key made by a rotation since the set was read: read the set again, once.
    if (problem?.startsWith('the checkpoint does not verify'))
      problem = proofProblem(proof, await this.keySet(String(proof.checkpoint?.key_id), true), tenantId, factId);
    if (problem) throw refused(field, 'proof_invalid', factId, `ledger fact ${factId} does not verify: ${problem}`);
    const fact: VerifiedFact = {
      fact_id: factId,
      fact_hash: answer.fact.fact_hash,
      stream_id: answer.fact.stream_id,
      // Covered by the fact_hash proofProblem recomputed: the ledger's database cannot swap it.
      sealed_by: proof.fact.sealed_by ?? null,
      custom_payload: answer.fact.custom_payload,
    };
    this.verified.set(key, fact);
    if (this.verified.size > this.cacheSize) this.verified.delete(this.verified.keys().next().value!);
    return fact;
  }

  /** The ledger's key set: kept for keysTtlMs; read again when it lacks `kid` or `refresh` asks. */
  private async keySet(kid: string, refresh: boolean): Promise<LedgerKeySet> {
    const known = this.keys;
    const fresh = known && this.now() - known.at < this.keysTtlMs && known.set.keys.some((k) => k.kid === kid);
    if (fresh && !refresh) return known.set;
    // Citations verified together share one read.
    this.keysReading ??= unavailableAs503(this.ledger.ledgerKeys())
      .then((set) => {
        this.keys = { set, at: this.now() };
        return set;
      })
      .finally(() => {
        this.keysReading = null;
      });
    return this.keysReading;
  }
}

function refused(field: string, reason: CitationProblem, factId: string | null, why: string): AppError {
  return new AppError(400, 'invalid_ledger_citation', `Context field ${field}: ${why}`, {
    field: `context.${field}`,
    reason,
    ...(factId ? { fact_id: factId } : {}),
  });
}

async function unavailableAs503<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (err) {
    if (err instanceof LedgerUnavailableError) {
      throw new AppError(
        503,
        'ledger_unavailable',
        'The ledger cannot be reached right now to verify a ledger citation; retry',
        undefined,
        { 'Retry-After': '5' },
      );
    }
    throw err;
  }
}
