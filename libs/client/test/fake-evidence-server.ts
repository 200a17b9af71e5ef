// A local HTTP server answering, from memory, the verdict and ledger routes the evidence pack and the
// completeness audit read (the verdict's consultations list, record, evidence, key set, rule versions,
// approvals; the ledger's fact pages, facts, checkpoints, consistency proofs and keys), in the services'
// shapes and error bodies. Both clients point at its one URL. Tests change its state between calls.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LedgerTestKey, TestStream } from './ledger-fixtures';

export interface FakeEvidenceServer {
  url: string;
  /** The verdict service's records by id (delete one to simulate a row removed behind the service's back). */
  records: Map<string, Record<string, unknown>>;
  streams: Map<string, TestStream>;
  ledgerKeys: LedgerTestKey[];
  /** The ledger's key transition statements (published with its keys). */
  ledgerTransitions: unknown[];
  verdictKeys: unknown[];
  ruleVersions: Map<string, unknown>;
  /** Requests as "METHOD path?query", in order. */
  requests: string[];
  /** Consultation ids whose evidence answers 409 evidence_pending even when sealed. */
  pendingEvidence: Set<string>;
  close(): Promise<void>;
}

export async function startFakeEvidenceServer(opts: { tenant: string; slug?: string }): Promise<FakeEvidenceServer> {
  const state: Omit<FakeEvidenceServer, 'url' | 'close'> = {
    records: new Map(),
    streams: new Map(),
    ledgerKeys: [],
    ledgerTransitions: [],
    verdictKeys: [],
    ruleVersions: new Map(),
    requests: [],
    pendingEvidence: new Set(),
  };
  const slug = opts.slug ?? 'acme';
  const verdictError = (status: number, code: string, message: string) => ({ status, body: { code, message } });
  const ledgerError = (status: number, code: string, message: string) => ({ status, body: { code, message } });

  const factById = (factId: string) => {
    for (const s of state.streams.values()) {
      const f = s.facts.find((x) => x.fact_id === factId);
      if (f) return { stream: s, fact: f };
    }
    return undefined;
  };

  function route(method: string, url: URL): { status: number; body: unknown } {
    const p = url.pathname;
    const q = url.searchParams;
    let m: RegExpExecArray | null;
    if (method !== 'GET') return verdictError(404, 'not_found', `No route for ${method} ${p}`);
    // --- ledger ---
    if (p === '/.well-known/ledger-keys')
      return { status: 200, body: { keys: state.ledgerKeys.map((k) => k.jwk), transitions: state.ledgerTransitions } };
    if ((m = /^\/streams\/([^/]+)\/(facts|checkpoint|consistency)$/.exec(p))) {
      const stream = state.streams.get(decodeURIComponent(m[1]));
      if (!stream || stream.tenantId !== opts.tenant || stream.facts.length === 0) return ledgerError(404, 'NOT_FOUND', 'Stream not found');
      const size = stream.facts.length;
      if (m[2] === 'facts') {
        const limit = Number(q.get('limit') ?? 50);
        const offset = Number(q.get('offset') ?? 0);
        if (!(limit >= 1 && limit <= 1000) || !(offset >= 0)) return ledgerError(400, 'VALIDATION_ERROR', 'limit or offset');
        const facts = stream.facts.slice(offset, offset + limit).map(({ fact_id, sealed_at_ms, sealed_at_iso, actor, custom_payload }) => ({
          fact_id,
          sealed_at_ms,
          sealed_at_iso,
          actor,
          custom_payload,
        }));
        return { status: 200, body: { facts, count: size, limit, offset } };
      }
      if (m[2] === 'checkpoint') {
        const n = q.has('tree_size') ? Number(q.get('tree_size')) : size;
        if (!(Number.isInteger(n) && n >= 1 && n <= size)) return ledgerError(400, 'VALIDATION_ERROR', 'tree_size');
        return { status: 200, body: stream.checkpoint(n) };
      }
      const from = Number(q.get('from'));
      const to = Number(q.get('to'));
      if (!(Number.isInteger(from) && Number.isInteger(to) && from >= 1 && from <= to && to <= size))
        return ledgerError(400, 'VALIDATION_ERROR', 'from and to');
      return { status: 200, body: stream.consistency(from, to) };
    }
    if ((m = /^\/facts\/([^/]+)(\/inclusion)?$/.exec(p))) {
      const found = factById(decodeURIComponent(m[1]));
      if (!found || found.stream.tenantId !== opts.tenant) return ledgerError(404, 'NOT_FOUND', 'Fact not found');
      return { status: 200, body: m[2] ? found.stream.inclusion(found.fact.fact_id) : found.fact };
    }
    // --- verdict ---
    if (p === '/v1/whoami')
      return {
        status: 200,
        body: { tenant_id: opts.tenant, tenant_slug: slug, principal_id: 'hum-auditor', kind: 'human', permissions: ['read'] },
      };
    if (p === `/v1/tenants/${slug}/jwks`) return { status: 200, body: { keys: state.verdictKeys } };
    if ((m = /^\/v1\/rule-versions\/([^/]+)$/.exec(p))) {
      const version = state.ruleVersions.get(decodeURIComponent(m[1]));
      return version ? { status: 200, body: version } : verdictError(404, 'rule_version_not_found', `rule version ${m[1]} not found`);
    }
    if ((m = /^\/([^/]+)\/v1\/(consultations|approvals)(?:\/([^/]+))?(\/evidence)?$/.exec(p))) {
      if (m[1] !== opts.tenant && m[1] !== slug) return verdictError(403, 'cross_tenant_forbidden', 'another tenant');
      if (m[2] === 'approvals') return { status: 200, body: { items: [], next_cursor: null } };
      if (m[3]) {
        const record = state.records.get(decodeURIComponent(m[3]));
        if (!record) return verdictError(404, 'consultation_not_found', `consultation ${m[3]} not found`);
        if (!m[4]) return { status: 200, body: record };
        const stream = state.streams.get(`arbiter.${opts.tenant}.consultations`);
        const fact = stream?.facts.find((f) => f.client_ref === record.id);
        if (!stream || !fact || state.pendingEvidence.has(String(record.id)))
          return verdictError(409, 'evidence_pending', `consultation ${m[3]} is not sealed in the ledger yet`);
        const { fact_id, leaf_index, tree_size, inclusion_path, checkpoint } = stream.inclusion(fact.fact_id);
        return {
          status: 200,
          body: {
            consultation_id: record.id,
            ledger: { stream_id: stream.streamId, fact_id, fact_hash: fact.fact_hash, leaf_index, tree_size, inclusion_path, checkpoint },
          },
        };
      }
      // The list: newest first on (requested_at, id), since/until inclusive, cursor = position.
      const since = q.has('since') ? Date.parse(q.get('since')!) : -Infinity;
      const until = q.has('until') ? Date.parse(q.get('until')!) : Infinity;
      const limit = Number(q.get('limit') ?? 50);
      const start = Number(q.get('cursor') ?? 0);
      const all = [...state.records.values()]
        .filter((r) => Date.parse(String(r.requested_at)) >= since && Date.parse(String(r.requested_at)) <= until)
        .sort((a, b) => String(b.requested_at).localeCompare(String(a.requested_at)) || String(b.id).localeCompare(String(a.id)));
      const items = all.slice(start, start + limit);
      return { status: 200, body: { items, next_cursor: start + limit < all.length ? String(start + limit) : null } };
    }
    return verdictError(404, 'not_found', `No route for ${method} ${p}`);
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    state.requests.push(`${req.method} ${url.pathname}${url.search}`);
    const { status, body } = route(req.method ?? 'GET', url);
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    ...state,
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
