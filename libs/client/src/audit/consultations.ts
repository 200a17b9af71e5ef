// The completeness audit of a tenant's consultations (docs/evidence.md "Completeness audit"): the verdict
// service's records of a period against the facts sealed in the tenant's ledger stream
// `arbiter.<tenant_id>.consultations`, and the stream's current checkpoint against one the auditor
// kept (RFC 9162 section 2.1.4 consistency). Every record must have exactly one fact whose payload is the
// record's; every fact of the period must have its record; the stream must only have grown; and the facts listed
// must be the ones the signed checkpoint covers (their fact_hash chain rebuilds its Merkle root), so a fact removed
// from or changed in the list, or in the ledger's database behind it, is found.
//
// Reads: the period's records once (pages of 1000, kept as their six sealed fields), then the stream's
// facts once, page by page, keeping only those of the period or of a listed record.
import { parseIsoDateOrTime } from '@arbiter/input';
import { digestBytes, factLeaf, RootBuilder, toDigest, verifyConsistency } from '@arbiter/merkle';
import { ArbiterError, InputError } from '../errors';
import type { LedgerClient } from '../ledger-client';
import type { ConsultationRecord, LedgerCheckpoint, LedgerKeySet } from '../types';
import type { VerdictClient } from '../verdict-client';
import { verifyCheckpoint } from '../verify/checkpoint';
import { normativeHashOf } from '../verify/consultation';
import { consultationStreamOf, VERDICT_SEAL_ACTOR } from '../verify/audit-streams';
import { consultationSealPayload, sealPayloadDifferences } from '../verify/evidence';
import { GENESIS_PREV_HASH, ledgerFactHash } from '../verify/ledger-bundle';
import { ReportBuilder, type VerificationReport } from '../verify/report';
import { extendTrust, type TrustAnchors } from '../verify/trust';

export interface AuditConsultationsOptions {
  verdict: VerdictClient;
  /** A key with `read` of the tenant (the tenant's streams). */
  ledger: LedgerClient;
  /** The tenant id (`tnt-…`); default: the verdict client's key's own tenant (GET /v1/whoami). */
  tenant?: string;
  /** The period, inclusive: ISO 8601 timestamps, or dates (a date-only `until` covers its whole UTC day). */
  since: string | Date;
  until: string | Date;
  /** A checkpoint of the stream the auditor kept from an earlier audit (GET /streams/{id}/checkpoint). */
  checkpoint?: unknown;
  /**
   * The keys the auditor holds (a parsed trust file, parseTrustFile): the checkpoints are verified with its
   * ledger keys, extended by the ledger's transition statements they vouch for. Without it the ledger's
   * keys are read from the ledger being audited, and the checkpoint report is `unpinned`.
   */
  trust?: TrustAnchors;
  /** Records younger than this without a fact are pending, not unsealed: sealing is asynchronous. Default 60 s. */
  graceMs?: number;
  now?: () => Date;
  onProgress?: (message: string) => void;
}

export interface FieldDifference {
  /** A payload member, `actor`, or `record_content` (the record no longer hashes to its normative_hash). */
  field: string;
  record: unknown;
  ledger: unknown;
}

export interface ConsultationAuditReport {
  tenant_id: string;
  stream_id: string;
  /** The period as the instants it was read with. */
  since: string;
  until: string;
  audited_at: string;
  grace_ms: number;
  /** Records of the period the verdict service listed. */
  records: number;
  /** Facts of the stream read, and how many of them were decided in the period. */
  facts_read: number;
  facts_in_period: number;
  /** Records younger than grace_ms with no fact yet (not findings). */
  pending: string[];
  /** A fact of the period whose record the verdict service does not have: a deleted record. */
  missing_in_verdict: { consultation_id: string; fact_ids: string[]; decided_at: unknown }[];
  /** A record of the period older than grace_ms with no fact. */
  unsealed: { consultation_id: string; requested_at: string }[];
  /** Several facts for one consultation. */
  duplicated: { consultation_id: string; fact_ids: string[] }[];
  /** A fact whose payload is not its record. */
  mismatched: { consultation_id: string; fact_id: string; fields: FieldDifference[] }[];
  /** A fact of the stream without a readable consultation payload. */
  malformed: { fact_id: string; problem: string }[];
  /** The current checkpoint's signature, the kept one's, and their consistency; status `unpinned` without trust. */
  checkpoint: VerificationReport;
  /** The current checkpoint, to keep for the next audit; null when it did not verify or is inconsistent with the kept one. */
  next_checkpoint: LedgerCheckpoint | null;
  /** Number of findings (each list entry, plus one for a failed checkpoint check); 0 = clean. */
  findings: number;
}

interface RecordSummary {
  payload: Record<string, unknown>;
  requested_at: string;
  /** The recomputed normative_hash, when it differs from the stored one. */
  rehashed?: string;
}

interface FactSummary {
  fact_id: string;
  actor: string;
  payload: Record<string, unknown>;
}

const DAY_MS = 86_400_000;
const DATE_ONLY = /^(?:[+-]\d{6}|\d{4})-\d{2}-\d{2}$/;

/**
 * A bound of the period as an instant; a date-only `until` is the last millisecond of that UTC day. A day the
 * calendar lacks (`2026-02-30`) is refused, never rolled over into the next month.
 */
export function periodBound(value: string | Date, end: boolean, name: string): number {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw new InputError(`${name} is not a valid date`);
    return value.getTime();
  }
  const ms = parseIsoDateOrTime(value);
  if (ms === null) throw new InputError(`${name} ${JSON.stringify(value)} is not an ISO 8601 date or timestamp`);
  return end && DATE_ONLY.test(value) ? ms + DAY_MS - 1 : ms;
}

const isNotFound = (err: unknown) => err instanceof ArbiterError && err.status === 404;

/** Compares the verdict service's consultations of a period with the tenant's ledger stream. */
export async function auditConsultations(opts: AuditConsultationsOptions): Promise<ConsultationAuditReport> {
  const { verdict, ledger } = opts;
  const progress = opts.onProgress ?? (() => undefined);
  const sinceMs = periodBound(opts.since, false, 'since');
  const untilMs = periodBound(opts.until, true, 'until');
  if (sinceMs > untilMs) throw new InputError(`since ${new Date(sinceMs).toISOString()} is after until ${new Date(untilMs).toISOString()}`);
  const graceMs = opts.graceMs ?? 60_000;
  if (!(graceMs >= 0)) throw new InputError(`graceMs ${graceMs} is not a duration`);
  if (opts.tenant !== undefined && !/^tnt-[A-Za-z0-9]+$/.test(opts.tenant))
    throw new InputError(`tenant ${JSON.stringify(opts.tenant)} is not a tenant id (tnt-…)`);
  const tenant = opts.tenant ?? (await verdict.whoami()).tenant_id;
  const stream = consultationStreamOf(tenant);
  const now = (opts.now?.() ?? new Date()).getTime();

  // 1. Checkpoints first: the facts read below are at least the ones the current checkpoint covers.
  progress(`checkpoint of ${stream}`);
  if (opts.trust && opts.trust.tenant_id !== tenant)
    throw new InputError(`the trust file is of tenant ${opts.trust.tenant_id}, the audit of ${tenant}`);
  const trust = new ReportBuilder('trust');
  const keys = ledgerKeysFor(trust, await ledger.keys(), opts.trust);
  const checked = await checkCheckpoints(ledger, stream, keys, opts.checkpoint, trust);
  const listed = new ListedTree(stream, tenant, checked.current?.tree_size ?? 0);

  // 2. The period's records, as the fields their seal must carry.
  const records = new Map<string, RecordSummary>();
  const since = new Date(sinceMs).toISOString();
  const until = new Date(untilMs).toISOString();
  let pages = 0;
  for await (const page of verdict.consultationPages({ since, until, limit: 1000 }, { tenant })) {
    for (const r of page.items) records.set(r.id, summarize(r));
    if (++pages % 10 === 0) progress(`verdict: ${records.size} records read`);
  }
  progress(`verdict: ${records.size} records in the period`);

  // 3. The stream, page by page: the facts of the period or of a listed record, by consultation.
  const facts = new Map<string, FactSummary[]>();
  const malformed: ConsultationAuditReport['malformed'] = [];
  let factsRead = 0;
  let factsInPeriod = 0;
  try {
    for await (const page of ledger.factPages(stream)) {
      for (const entry of page.facts) {
        factsRead++;
        listed.add(entry);
        const payload = entry.custom_payload as Record<string, unknown>;
        const id = payload?.consultation_id;
        if (typeof id !== 'string' || !id) {
          malformed.push({ fact_id: entry.fact_id, problem: 'its payload has no consultation_id' });
          continue;
        }
        const decided = typeof payload.decided_at === 'string' ? Date.parse(payload.decided_at) : Number.NaN;
        // A seal's decided_at is always an instant: one that is not could be placed in no period, so it is a finding.
        if (Number.isNaN(decided)) malformed.push({ fact_id: entry.fact_id, problem: 'its decided_at is not a timestamp' });
        const inPeriod = decided >= sinceMs && decided <= untilMs;
        if (inPeriod) factsInPeriod++;
        if (!inPeriod && !records.has(id)) continue;
        const list = facts.get(id) ?? [];
        list.push({ fact_id: entry.fact_id, actor: entry.actor, payload });
        facts.set(id, list);
      }
      if (page.offset > 0 && (page.offset / 1000) % 10 === 0) progress(`ledger: ${factsRead}/${page.count} facts read`);
    }
  } catch (err) {
    if (!isNotFound(err)) throw err; // no stream yet: nothing was ever sealed
  }
  progress(`ledger: ${factsRead} facts read, ${factsInPeriod} decided in the period`);
  const listingHolds = listed.check(checked.report, checked.current, factsRead);
  const checkpoint = checked.report.build();
  const next = listingHolds ? checked.next : null;

  // 4. Classification.
  const report: ConsultationAuditReport = {
    tenant_id: tenant,
    stream_id: stream,
    since,
    until,
    audited_at: new Date(now).toISOString(),
    grace_ms: graceMs,
    records: records.size,
    facts_read: factsRead,
    facts_in_period: factsInPeriod,
    pending: [],
    missing_in_verdict: [],
    unsealed: [],
    duplicated: [],
    mismatched: [],
    malformed,
    checkpoint,
    next_checkpoint: next,
    findings: 0,
  };
  for (const [id, sealed] of facts) {
    if (sealed.length > 1) report.duplicated.push({ consultation_id: id, fact_ids: sealed.map((f) => f.fact_id) });
    let record = records.get(id);
    if (!record) {
      // Sealed in the period but not listed: deleted, or written after the list was read (then it is there).
      try {
        record = summarize(await verdict.getConsultation(id, { tenant }));
      } catch (err) {
        if (!isNotFound(err)) throw err;
        report.missing_in_verdict.push({
          consultation_id: id,
          fact_ids: sealed.map((f) => f.fact_id),
          decided_at: sealed[0].payload.decided_at,
        });
        continue;
      }
    }
    for (const fact of sealed) {
      const fields: FieldDifference[] = sealPayloadDifferences(record.payload, fact.payload);
      if (fact.actor !== VERDICT_SEAL_ACTOR) fields.push({ field: 'actor', record: VERDICT_SEAL_ACTOR, ledger: fact.actor });
      if (record.rehashed) fields.push({ field: 'record_content', record: record.rehashed, ledger: fact.payload.normative_hash });
      if (fields.length) report.mismatched.push({ consultation_id: id, fact_id: fact.fact_id, fields });
    }
  }
  for (const [id, record] of records) {
    if (facts.has(id)) continue;
    if (now - Date.parse(record.requested_at) > graceMs) report.unsealed.push({ consultation_id: id, requested_at: record.requested_at });
    else report.pending.push(id);
  }
  report.findings =
    report.missing_in_verdict.length +
    report.unsealed.length +
    report.duplicated.length +
    report.mismatched.length +
    report.malformed.length +
    (checkpoint.status === 'invalid' ? 1 : 0);
  return report;
}

function summarize(r: ConsultationRecord): RecordSummary {
  let recomputed: string | undefined;
  try {
    recomputed = normativeHashOf(r as unknown as Record<string, unknown>);
  } catch {
    recomputed = '(not computable)';
  }
  return {
    payload: consultationSealPayload(r),
    requested_at: r.requested_at,
    rehashed: recomputed === r.normative_hash ? undefined : recomputed,
  };
}

/**
 * The ledger keys the checkpoints are verified with: the auditor's, extended by the ledger's transition
 * statements they vouch for; without trust the ledger's own answer, noted as unpinned.
 */
function ledgerKeysFor(report: ReportBuilder, published: LedgerKeySet, trust: TrustAnchors | undefined): LedgerKeySet {
  if (!trust) {
    report.unpinned(
      'trust',
      'no trusted keys given (--trust <file>): the checkpoints were checked with the keys the audited ledger published, whoever runs it chose',
    );
    return published;
  }
  report.pass('trust', `ledger keys pinned by your trust file (${trust.ledger_keys.keys.length} keys)`);
  const { trusted, report: extension } = extendTrust(trust, { ledger_transitions: published.transitions ?? [] });
  report.include('trust', extension);
  return trusted.ledger_keys;
}

/**
 * The current checkpoint (signature, key window), the kept one (the same), and the consistency proof
 * from the kept size to the current size (RFC 9162 section 2.1.4.2).
 */
async function checkCheckpoints(
  ledger: LedgerClient,
  stream: string,
  keys: LedgerKeySet,
  kept: unknown,
  trust: ReportBuilder,
): Promise<{ report: ReportBuilder; current: LedgerCheckpoint | null; next: LedgerCheckpoint | null }> {
  const report = new ReportBuilder(`checkpoints of ${stream}`);
  report.checks.push(...trust.checks);
  let current: LedgerCheckpoint | null = null;
  try {
    current = await ledger.getCheckpoint(stream);
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
  if (!current) report.info('current', 'the stream has no facts yet: no checkpoint');
  const currentReport = current ? verifyCheckpoint(current, keys, { streamId: stream }) : null;
  if (currentReport) report.include('current', currentReport);
  // The current checkpoint when it verifies: the facts listed are held to it.
  const valid = currentReport?.valid ? current : null;
  if (kept === undefined) {
    report.info('consistency', 'no kept checkpoint given: nothing to compare the current one with');
    return { report, current: valid, next: valid };
  }
  const keptReport = verifyCheckpoint(kept, keys, { streamId: stream });
  report.include('kept', keptReport);
  if (!keptReport.valid || !currentReport?.valid || !current) {
    if (keptReport.valid && !current)
      report.fail(
        'consistency',
        `the kept checkpoint covers ${(kept as LedgerCheckpoint).tree_size} facts but the stream has none: it was removed`,
      );
    else report.fail('consistency', 'not checked: a checkpoint did not verify');
    return { report, current: valid, next: null };
  }
  const k = kept as LedgerCheckpoint;
  if (k.tree_size > current.tree_size) {
    report.fail(
      'consistency',
      `the stream has ${current.tree_size} facts, fewer than the ${k.tree_size} of the kept checkpoint: facts were removed`,
    );
    return { report, current: valid, next: null };
  }
  let path: string[] = [];
  if (k.tree_size < current.tree_size) {
    const proof = await ledger.getConsistency(stream, k.tree_size, current.tree_size);
    if (proof.from !== k.tree_size || proof.to !== current.tree_size) {
      report.fail(
        'consistency',
        `the ledger answered a proof from ${proof.from} to ${proof.to}, not from ${k.tree_size} to ${current.tree_size}`,
      );
      return { report, current: valid, next: null };
    }
    path = proof.consistency_path;
  }
  let consistent = false;
  try {
    consistent = verifyConsistency(
      k.tree_size,
      current.tree_size,
      digestBytes(k.root_hash),
      digestBytes(current.root_hash),
      path.map(digestBytes),
    );
  } catch {
    consistent = false;
  }
  report.expect(
    'consistency',
    consistent,
    k.tree_size === current.tree_size
      ? `the stream still has the kept checkpoint's ${k.tree_size} facts, same root`
      : `the tree of ${current.tree_size} facts extends the kept tree of ${k.tree_size} (${path.length}-hash consistency proof)`,
    `the tree of ${current.tree_size} facts does not extend the kept tree of ${k.tree_size} facts (root ${k.root_hash}): facts of the kept tree were changed, removed or reordered`,
  );
  return { report, current: valid, next: consistent ? current : null };
}

/**
 * The tree the listed facts make (docs/evidence.md "The tree"): their fact_hash chain from the genesis value, computed
 * from what the list answers (docs/ledger-formats.md "fact_hash"), and the Merkle root of its first `size` leaves (the
 * size of the checkpoint it is held to).
 */
class ListedTree {
  private prev = GENESIS_PREV_HASH;
  private readonly root = new RootBuilder();
  private unreadable: string | null = null;

  constructor(
    private readonly stream: string,
    private readonly tenant: string,
    private readonly size: number,
  ) {}

  add(entry: unknown): void {
    if (this.unreadable !== null || this.root.size >= this.size) return;
    try {
      this.prev = ledgerFactHash(entry as Record<string, unknown>, { stream_id: this.stream, tenant_id: this.tenant }, this.prev);
    } catch (err) {
      this.unreadable = `fact ${this.root.size + 1} of the list cannot be hashed: ${(err as Error).message}`;
      return;
    }
    this.root.add(factLeaf(this.prev));
  }

  /** Adds the `listing` check to `report`: the facts listed rebuild the signed checkpoint's root. Whether they do. */
  check(report: ReportBuilder, checkpoint: LedgerCheckpoint | null, read: number): boolean {
    if (!checkpoint) {
      report.info('listing', 'no signed checkpoint to hold the facts listed to');
      return true;
    }
    if (this.unreadable !== null) {
      report.fail('listing', this.unreadable);
      return false;
    }
    if (read < checkpoint.tree_size) {
      report.fail(
        'listing',
        `the ledger listed ${read} facts, fewer than the ${checkpoint.tree_size} its signed checkpoint covers: facts are missing from the list`,
      );
      return false;
    }
    // The builder stops at `size` leaves: it holds exactly the checkpoint's tree once that many were listed.
    const rootAtSize = this.root.size === this.size ? toDigest(this.root.root()) : null;
    return report.expect(
      'listing',
      rootAtSize === checkpoint.root_hash,
      `the first ${checkpoint.tree_size} facts listed chain from the genesis hash and rebuild the signed checkpoint's root ${checkpoint.root_hash}`,
      `the first ${checkpoint.tree_size} facts listed rebuild the root ${rootAtSize}, not the signed checkpoint's ${checkpoint.root_hash}: a fact was changed, removed or reordered`,
    );
  }
}
