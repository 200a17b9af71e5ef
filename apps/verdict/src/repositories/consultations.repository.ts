import type { TenantId } from '@arbiter/auth';
import type { Pool } from 'pg';
import type { Fact, Scope } from '@arbiter/policy';
import { auditStreamAffixes, consultationSealPayload } from '@arbiter/audit-streams';
import { bisectOnRowFault, GroupCommitWriter, isRowFault, jsonArrayParam, retentionMs } from '@arbiter/db';
import { activeTraceparent } from '@arbiter/telemetry';
import type { ConsultationRecord, LedgerCitationEntry } from '../domain/consultation-record';
import type { SealedConsultation } from '../domain/consultation-builder';
import type { ExplanationBasis } from '../domain/explanation-basis';
import type { SealedValues } from '../domain/sealed-values';
import type { ConsultationFilter, ConsultationPosition } from '../domain/consultation-query';
import { keepUntilRanges } from '../domain/record-whereabouts';
export type { ConsultationFilter, ConsultationPosition };

/** What a simulation replays of a stored consultation (docs/verdicts.md "Simulation"). */
export interface ReplayRow {
  id: string;
  requested_at: Date;
  action: string;
  resource: string;
  scope_used: Scope;
  parameters: Record<string, unknown>;
  context_snapshot: Record<string, Fact>;
  /** The record's verified ledger citations (docs/verdicts.md "Facts the ledger vouches for"); null when it has none. */
  ledger_citations: Record<string, LedgerCitationEntry> | null;
  /** Who asked, and for whom: the `principal` and `on_behalf_of` paths of a rule's window key. */
  caller_principal_id: string;
  on_behalf_of: string | null;
  /**
   * When the caller reported the operation not executed (`executed: false`, docs/verdicts.md "Worked
   * examples: budgets and sequences"): a replay gives its window amounts back from then on. Null otherwise.
   */
  not_executed_at: Date | null;
  /** How the record was evaluated: a resolve record replays in resolve's tolerant mode (docs/verdicts.md "Simulation"). */
  operation: 'check' | 'resolve' | null;
  /** The record's sealed sensitive values (docs/verdicts.md "Sensitive fields"); null when it has none. */
  sealed_values: SealedValues | null;
}

/** Which way a simulation streams its window (docs/verdicts.md "Simulation"). */
export type ReplayOrder = 'newest_first' | 'oldest_first';

/**
 * The shadow_disagreements rows of a batch (docs/verdicts.md "Shadow rules") as one JSON array, or
 * null when no record of the batch has a `shadow` member (the statement then stays as it was).
 */
function shadowRows(records: ConsultationRecord[]): string | null {
  let rows: string[] | null = null;
  for (const r of records) {
    if (!r.shadow) continue;
    for (const s of r.shadow)
      (rows ??= []).push(
        JSON.stringify({ consultation_id: r.id, rule_id: s.rule_id, rule_version_id: s.rule_version_id, would_be: s.would_be }),
      );
  }
  return rows === null ? null : `[${rows.join(',')}]`;
}

/** Disagreements of one shadow rule version (GET /internal/v1/tenants/{tenant_id}/rules/{rule_id}/shadow). */
export interface ShadowVersionCount {
  rule_version_id: string;
  disagreements: number;
  last_at: Date;
}

/**
 * Consultation records: written durably before the verdict is returned, through a group commit
 * (one INSERT per batch, each caller answered after its batch commits). Reads are tenant-scoped;
 * `record` is stored and returned exactly as it was hashed and signed.
 */
/** The default retention of consultations (a save that names none: tools and tests). */
const DEFAULT_RETENTION_MS = retentionMs(undefined, 'consultations');

interface PendingRow {
  sealed: SealedConsultation;
  /** JSON of the record's explanation basis (domain/explanation-basis.ts); null when it needs none. */
  basis: string | null;
  /** JSON of the record's sealed sensitive values (docs/verdicts.md "Sensitive fields"); null when it has none. */
  sealedValues: string | null;
  /** The check's traceparent (tracing on, span sampled): stored with the record's seal_outbox row. */
  traceparent: string | null;
  /** When the record may leave: requested_at + the tenant's retention of consultations (docs/operations.md "Retention"). */
  keepUntil: string;
  /** Set when the row was not committed: it failed alone, or the batch failed for a reason no row caused. */
  error?: unknown;
}

export class ConsultationRepository {
  private readonly writer: GroupCommitWriter<PendingRow>;
  private accepted = 0;

  private readonly sealing: boolean;
  private readonly retentions: () => readonly number[];

  constructor(
    private readonly pool: Pool,
    opts: {
      maxInFlight?: number;
      onBatch?: (size: number) => void;
      sealing?: boolean;
      /** Called after a batch that wrote seal_outbox rows committed (the worker's relay is nudged). */
      onSealed?: () => void;
      /**
       * The retentions of consultations in use, in milliseconds (RetentionHints): where a lookup by id looks first
       * (domain/record-whereabouts.ts). Default: the default retention alone.
       */
      retentions?: () => readonly number[];
    } = {},
  ) {
    this.sealing = opts.sealing ?? true;
    this.retentions = opts.retentions ?? (() => [DEFAULT_RETENTION_MS]);
    const onSealed = this.sealing ? opts.onSealed : undefined;
    this.writer = new GroupCommitWriter(
      async (rows) => {
        if ((await this.insertBatch(rows)) > 0) onSealed?.();
      },
      { maxBatch: 500, maxInFlight: opts.maxInFlight ?? 2, onBatch: opts.onBatch },
    );
  }

  /**
   * Resolves once the record is committed (stored as `sealed.json`, with its explanation basis beside
   * it, outside what is hashed and signed); rejects when it could not be.
   */
  async save(
    sealed: SealedConsultation,
    basis: ExplanationBasis | null = null,
    sealedValues: SealedValues | null = null,
    retentionMs: number = DEFAULT_RETENTION_MS,
  ): Promise<void> {
    const row: PendingRow = {
      sealed,
      basis: basis === null ? null : JSON.stringify(basis),
      sealedValues: sealedValues === null ? null : JSON.stringify(sealedValues),
      traceparent: this.sealing ? activeTraceparent() : null,
      keepUntil: new Date(Date.parse(sealed.record.requested_at) + retentionMs).toISOString(),
    };
    this.accepted++;
    try {
      await this.writer.write(row);
    } finally {
      this.accepted--;
    }
    if (row.error !== undefined) throw row.error;
  }

  /** Records accepted and not yet committed or refused (waiting for a batch, or in one being written). */
  get pending(): number {
    return this.accepted;
  }

  /** Finishes every accepted write (graceful shutdown). */
  drain(): Promise<void> {
    return this.writer.close();
  }

  /**
   * One INSERT for the whole batch (one statement: all of it commits or none). When the database
   * refuses it because of a row's data, the batch is halved until each faulty row stands alone
   * (bisectOnRowFault, libs/db): the good rows commit and each faulty row keeps its own error
   * (docs/verdicts.md "Overrides": one request's bad row never fails another request). Any other
   * failure is every row's error. Answers how many rows committed.
   */
  private async insertBatch(rows: PendingRow[]): Promise<number> {
    const outcomes = await bisectOnRowFault(rows, (part) => this.insertRecords(part), { isRowFault, otherFault: 'fail-part' });
    let committed = 0;
    outcomes.forEach((o, i) => {
      if (o.ok) committed++;
      else rows[i].error = o.error;
    });
    return committed;
  }

  /**
   * The records travel as one `json[]` parameter in binary format (jsonArrayParam, libs/db): PostgreSQL validates
   * each record once and stores its text as sent. Measured against one JSON array split by json_array_elements, which
   * PostgreSQL lexes twice and copies each record out of, and against a text-format json[] (docs/benchmarks.md
   * "Records as a binary json[]").
   *
   * With sealing on, the same statement writes each record's seal_outbox row (docs/operations.md
   * "Seal relay"): a consultation is stored with its row or not at all, at no extra round trip. The
   * seal payloads travel as a second json[], in record order, and the traceparents of traced
   * checks (docs/operations.md "Tracing") as a further array, only when the batch has one.
   */
  private async insertRecords(rows: PendingRow[]): Promise<void> {
    const sealed = rows.map((r) => r.sealed);
    const records = sealed.map((s) => s.record);
    const params: unknown[] = [
      records.map((r) => r.id),
      records.map((r) => r.tenant_id),
      records.map((r) => r.caller_principal_id),
      records.map((r) => r.requested_at),
      records.map((r) => r.action),
      records.map((r) => r.verdict),
      records.map((r) => r.dominating_rule_id),
      jsonArrayParam(sealed.map((s) => s.json)),
      rows.map((r) => r.keepUntil),
    ];
    // Explanation bases only when the batch has one (docs/verdicts.md "Explanations"): batches of
    // allowed checks are written as before.
    // Likewise the sealed sensitive values (docs/verdicts.md "Sensitive fields"), only when the batch has some.
    const extra = { column: '', value: '', array: '' };
    for (const [column, of] of [
      ['explanation_basis', (r: PendingRow) => r.basis],
      ['sealed_values', (r: PendingRow) => r.sealedValues],
    ] as const) {
      if (!rows.some((r) => of(r) !== null)) continue;
      params.push(jsonArrayParam(rows.map(of)));
      extra.column += `, ${column}`;
      extra.value += `, c.${column}`;
      extra.array += `, $${params.length}::json[]`;
    }
    const input = `SELECT c.id, c.tenant_id, c.caller_principal_id, c.requested_at, c.action, c.verdict, c.dominating_rule_id, c.record, c.keep_until${extra.value}
         FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[], $5::text[], $6::text[], $7::text[], $8::json[], $9::timestamptz[]${extra.array})
              AS c(id, tenant_id, caller_principal_id, requested_at, action, verdict, dominating_rule_id, record, keep_until${extra.column})`;
    const insert = `INSERT INTO consultations (id, tenant_id, caller_principal_id, requested_at, action, verdict, dominating_rule_id, record, keep_until${extra.column}) ${input}`;
    const shadow = shadowRows(records);
    if (!this.sealing && shadow === null) {
      await this.pool.query(insert, params);
      return;
    }
    // Each further table is written from the rows the INSERT returned, in the same statement.
    const writes: string[] = [];
    if (shadow !== null) {
      params.push(shadow);
      writes.push(`INSERT INTO shadow_disagreements (tenant_id, rule_id, rule_version_id, consultation_id, requested_at, would_be, keep_until)
       SELECT c.tenant_id, d.value->>'rule_id', d.value->>'rule_version_id', c.id, c.requested_at, d.value->>'would_be', c.keep_until
         FROM json_array_elements($${params.length}::json) AS d(value)
         JOIN c ON c.id = d.value->>'consultation_id'`);
    }
    if (this.sealing) {
      params.push(jsonArrayParam(records.map((r) => JSON.stringify(consultationSealPayload(r)))));
      const payloads = params.length;
      const { prefix, suffix } = auditStreamAffixes('consultations');
      params.push(prefix, suffix);
      const stream = { prefix: params.length - 1, suffix: params.length };
      const traced = rows.filter((r) => r.traceparent !== null);
      let trace = { column: '', value: '', join: '' };
      if (traced.length) {
        params.push(
          traced.map((r) => r.sealed.record.id),
          traced.map((r) => r.traceparent),
        );
        trace = {
          column: ', traceparent',
          value: ', t.traceparent',
          join: `
         LEFT JOIN unnest($${params.length - 1}::text[], $${params.length}::text[]) AS t(id, traceparent) ON t.id = c.id`,
        };
      }
      writes.push(`INSERT INTO seal_outbox (tenant_id, stream_id, client_ref, payload${trace.column})
       -- auditStreamId(tenant_id, 'consultations') (libs/audit-streams), built around the tenant column
       SELECT c.tenant_id, $${stream.prefix}::text || c.tenant_id || $${stream.suffix}::text, c.id, p.value${trace.value}
         FROM unnest($1::text[], $${payloads}::json[]) AS p(id, value)
         JOIN c ON c.id = p.id${trace.join}`);
    }
    const last = writes.pop()!;
    await this.pool.query(
      `WITH c AS (${insert}
         RETURNING id, tenant_id, requested_at, keep_until)${writes
           .map(
             (w, i) => `,
       w${i} AS (${w})`,
           )
           .join('')}
       ${last}`,
      params,
    );
  }

  /**
   * How often each version of a shadow rule disagreed with the verdict (docs/verdicts.md "Shadow
   * rules"): grouped from the rule's own range of shadow_disagreements_rule_idx, never from records.
   */
  async shadowCounts(tenantId: TenantId, ruleId: string): Promise<ShadowVersionCount[]> {
    const { rows } = await this.pool.query<ShadowVersionCount>(
      `SELECT rule_version_id, count(*)::int AS disagreements, max(requested_at) AS last_at
         FROM shadow_disagreements WHERE tenant_id = $1 AND rule_id = $2
        GROUP BY rule_version_id ORDER BY min(requested_at), rule_version_id`,
      [tenantId, ruleId],
    );
    return rows;
  }

  /** The record of this id, with the tenant that owns it (the caller decides 404 vs 403). */
  findAnyTenant(id: string): Promise<{ tenant_id: string; record: ConsultationRecord; sealed_values: SealedValues | null } | null> {
    return this.byId('tenant_id, record, sealed_values', id);
  }

  /** The record of this id with its explanation basis and the tenant that owns it (the caller decides 404 vs 403). */
  findWithBasisAnyTenant(id: string): Promise<{
    tenant_id: string;
    record: ConsultationRecord;
    explanation_basis: ExplanationBasis | null;
    sealed_values: SealedValues | null;
  } | null> {
    return this.byId('tenant_id, record, explanation_basis, sealed_values', id);
  }

  async find(tenantId: TenantId, id: string): Promise<ConsultationRecord | null> {
    return (await this.byId<{ record: ConsultationRecord }>('record', id, tenantId))?.record ?? null;
  }

  /**
   * The row of this id (of `tenantId`'s when given): first in the partitions where a record written under a retention
   * in use lies (its keep_until near its id's time plus that retention: a few partitions), then, if it was not there,
   * in every partition (a retention since changed, a long resolve session, an id of another form). Either way the
   * same row; the first look spares PostgreSQL planning and probing every partition (docs/benchmarks.md "A
   * consultation by its id").
   */
  private async byId<R>(columns: string, id: string, tenantId?: TenantId): Promise<R | null> {
    const params: unknown[] = tenantId === undefined ? [id] : [id, tenantId];
    const where = `id = $1${tenantId === undefined ? '' : ' AND tenant_id = $2'}`;
    const ranges = keepUntilRanges(id, this.retentions());
    if (ranges) {
      const near = ranges.map(([from, to]) => `keep_until BETWEEN $${params.push(from)} AND $${params.push(to)}`).join(' OR ');
      const { rows } = await this.pool.query<R & object>(`SELECT ${columns} FROM consultations WHERE ${where} AND (${near})`, params);
      if (rows[0]) return rows[0];
    }
    const { rows } = await this.pool.query<R & object>(
      `SELECT ${columns} FROM consultations WHERE ${where}`,
      params.slice(0, tenantId === undefined ? 1 : 2),
    );
    return rows[0] ?? null;
  }

  /** Newest first, keyset-paginated on (requested_at, id); returns up to limit + 1 rows (the extra one says "more"). */
  async list(tenantId: TenantId, filter: ConsultationFilter, limit: number, after?: ConsultationPosition): Promise<ConsultationRecord[]> {
    const where = ['tenant_id = $1'];
    const params: unknown[] = [tenantId];
    const add = (sql: string, value: unknown) => {
      params.push(value);
      where.push(sql.replace('?', `$${params.length}`));
    };
    if (filter.actor) add('caller_principal_id = ?', filter.actor);
    if (filter.since) add('requested_at >= ?', filter.since);
    if (filter.until) add('requested_at <= ?', filter.until);
    if (filter.action) add('action = ?', filter.action);
    if (filter.verdict) add('verdict = ?', filter.verdict);
    if (filter.dominating_rule_id) add('dominating_rule_id = ?', filter.dominating_rule_id);
    if (after) {
      params.push(after.requested_at, after.id);
      where.push(`(requested_at, id) < ($${params.length - 1}, $${params.length})`);
    }
    params.push(limit + 1);
    const { rows } = await this.pool.query<{ record: ConsultationRecord }>(
      `SELECT record FROM consultations WHERE ${where.join(' AND ')} ORDER BY requested_at DESC, id DESC LIMIT $${params.length}`,
      params,
    );
    return rows.map((r) => r.record);
  }

  /**
   * One keyset page of the consultations a simulation replays, newest first (or oldest first, when
   * windows are replayed in time order): requested_at within [since, until], past `after` when given, at
   * most `limit`. Only the members a replay reads leave the database: json_to_record parses each stored
   * record once, in PostgreSQL, and the rest of it (trace, signature, hashes) is never sent.
   */
  async replayPage(
    tenantId: TenantId,
    window: { since: Date; until: Date },
    limit: number,
    after?: ConsultationPosition,
    order: ReplayOrder = 'newest_first',
  ): Promise<ReplayRow[]> {
    const params: unknown[] = [tenantId, window.since, window.until, limit];
    const [cmp, dir] = order === 'newest_first' ? ['<', 'DESC'] : ['>', 'ASC'];
    let keyset = '';
    if (after) {
      params.push(after.requested_at, after.id);
      keyset = `AND (c.requested_at, c.id) ${cmp} ($5, $6)`;
    }
    // not_executed_at: when the caller reported the operation not executed (docs/verdicts.md "Windows and outcomes").
    const { rows } = await this.pool.query<ReplayRow>(
      `SELECT c.id, c.requested_at, c.action, r.resource, r.scope_used, r.parameters, r.context_snapshot, r.ledger_citations,
              c.caller_principal_id, r.on_behalf_of, r.operation, o.reported_at AS not_executed_at, c.sealed_values
         FROM consultations c
         LEFT JOIN consultation_outcomes o ON o.tenant_id = c.tenant_id AND o.consultation_id = c.id AND NOT o.executed
        CROSS JOIN LATERAL json_to_record(c.record) AS r(resource text, scope_used json, parameters json, context_snapshot json,
                                                         ledger_citations json, on_behalf_of text, operation text)
        WHERE c.tenant_id = $1 AND c.requested_at >= $2 AND c.requested_at <= $3 ${keyset}
        ORDER BY c.requested_at ${dir}, c.id ${dir}
        LIMIT $4`,
      params,
    );
    return rows;
  }

  /**
   * Where an oldest-first replay of the `last` newest consultations of the window starts: the position
   * just before the oldest of them, or undefined when the window holds no more than `last` (start at
   * its beginning).
   */
  async replayStart(tenantId: TenantId, window: { since: Date; until: Date }, last: number): Promise<ConsultationPosition | undefined> {
    const { rows } = await this.pool.query<ConsultationPosition>(
      `SELECT requested_at, id FROM consultations
        WHERE tenant_id = $1 AND requested_at >= $2 AND requested_at <= $3
        ORDER BY requested_at DESC, id DESC
        OFFSET $4 LIMIT 1`,
      [tenantId, window.since, window.until, last],
    );
    return rows[0];
  }
}
