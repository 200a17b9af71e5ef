import type { Pool } from 'pg';
import type { AuthenticatedIdentity, TenantId } from '@arbiter/auth';
import type { SearchBody, SearchHit, SearchResult } from '../models/search';
import type { EntryType } from '../models/common';
import { presentDecision, presentInvariant, presentRule } from '../presenters/registry';
import type { ScopeAccess } from './scope-access.service';
import type { Repos } from './changes.service';

/** Where a match is shown: matched words between « and », up to two fragments. */
const HEADLINE_OPTIONS = 'StartSel=«, StopSel=», MaxWords=30, MinWords=12, ShortWord=2, MaxFragments=2, FragmentDelimiter=" … "';

/**
 * Full-text search over decisions (decision A, context B, reasoning C), invariants (constraint A,
 * rationale B) and rules (directive of the current version, A): english stemming, ranked by
 * ts_rank_cd. The query goes through websearch_to_tsquery, which accepts any text (quotes,
 * operators, unicode) without a syntax error; only a NUL character, which PostgreSQL text cannot
 * hold, is removed first.
 */
const SEARCH_SQL = `
WITH q AS (SELECT websearch_to_tsquery('english', $1) AS query),
hits AS (
  SELECT 'decision'::text AS entry_type, d.id AS entry_id, d.scope_id, 'active'::text AS status,
         ts_rank_cd(d.search, q.query) AS rank, concat_ws(' … ', d.decision, d.context, d.reasoning) AS body
    FROM decisions d, q
   WHERE $4::text IN ('all', 'decision') AND d.tenant_id = $2 AND d.search @@ q.query
     AND ($3::text[] IS NULL OR d.scope_id = ANY($3::text[]))
  UNION ALL
  SELECT 'invariant', i.id, i.scope_id, i.status, ts_rank_cd(i.search, q.query), concat_ws(' … ', i.constraint_text, i.rationale)
    FROM invariants i, q
   WHERE $4::text IN ('all', 'invariant') AND i.tenant_id = $2 AND i.search @@ q.query
     AND ($3::text[] IS NULL OR i.scope_id = ANY($3::text[])) AND ($5::boolean OR i.status = 'active')
  UNION ALL
  SELECT 'rule', r.id, r.scope_id, r.status, ts_rank_cd(v.search, q.query), v.directive
    FROM rules r JOIN rule_versions v ON v.id = r.current_version_id, q
   WHERE $4::text IN ('all', 'rule') AND r.tenant_id = $2 AND v.search @@ q.query
     AND ($3::text[] IS NULL OR r.scope_id = ANY($3::text[])) AND ($5::boolean OR r.status = 'active')
),
top AS (SELECT * FROM hits ORDER BY rank DESC, entry_id LIMIT $6)
SELECT entry_type, entry_id, scope_id, status, rank::float8 AS rank,
       ts_headline('english', body, (SELECT query FROM q), '${HEADLINE_OPTIONS}') AS snippet
  FROM top
 ORDER BY rank DESC, entry_id`;

interface HitRow {
  entry_type: EntryType;
  entry_id: string;
  scope_id: string;
  status: string;
  rank: number;
  snippet: string;
}

export class SearchService {
  constructor(
    private readonly pool: Pool,
    private readonly repos: Repos,
    private readonly access: ScopeAccess,
  ) {}

  async search(caller: AuthenticatedIdentity, body: SearchBody): Promise<SearchResult> {
    let scopes = this.access.only(caller);
    if (body.scope_id !== undefined) scopes = [(await this.access.scope(caller, body.scope_id)).id];
    const query = body.query.replace(/\u0000/g, ' ');
    const { rows } = await this.pool.query<HitRow>(SEARCH_SQL, [
      query,
      caller.tenant_id,
      scopes,
      body.entry_type ?? 'all',
      body.include_inactive ?? false,
      body.limit ?? 50,
    ]);
    const entries = await this.entries(caller.tenant_id, rows);
    const items: SearchHit[] = [];
    for (const row of rows) {
      const entry = entries.get(row.entry_id);
      if (entry) items.push({ ...row, entry });
    }
    return { items };
  }

  private async entries(tenantId: TenantId, rows: HitRow[]): Promise<Map<string, SearchHit['entry']>> {
    const ids = (t: EntryType) => rows.filter((r) => r.entry_type === t).map((r) => r.entry_id);
    const [decisions, invariants, rules] = await Promise.all([
      this.repos.entries.findDecisions(tenantId, ids('decision')),
      this.repos.entries.findInvariants(tenantId, ids('invariant')),
      this.repos.rules.findMany(tenantId, ids('rule')),
    ]);
    return new Map<string, SearchHit['entry']>([
      ...decisions.map((d) => [d.id, presentDecision(d)] as const),
      ...invariants.map((i) => [i.id, presentInvariant(i)] as const),
      ...rules.map((r) => [r.id, presentRule(r)] as const),
    ]);
  }
}
