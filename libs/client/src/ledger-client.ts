// The fact ledger's client (docs/ledger-formats.md), typed by the generated paths of apps/ledger/openapi.json.
import type { Client } from 'openapi-fetch';
import { createServiceClient, unwrap, unwrapWithResponse, type ServiceClientOptions } from './http';
import type {
  Identity,
  LedgerCheckpoint,
  LedgerConsistencyProof,
  LedgerFact,
  LedgerFactListEntry,
  LedgerInclusionProof,
  LedgerKeyRotation,
  LedgerKeySet,
  LedgerPaths,
  ProofBundle,
  RotationMode,
  SealFactBody,
  StreamVerification,
} from './types';

export type LedgerClientOptions = ServiceClientOptions;

/** The ledger's routes: the generated paths of apps/ledger/openapi.json. */
export type LedgerRoutes = LedgerPaths;

type FactListQuery = NonNullable<LedgerPaths['/streams/{stream_id}/facts']['get']['parameters']['query']>;

export interface LedgerClient {
  readonly service: 'ledger';
  readonly baseUrl: string;
  readonly raw: Client<LedgerRoutes>;
  whoami(): Promise<Identity>;
  /** Seals a fact; `created` is false when client_ref was used before and the original fact came back. */
  seal(streamId: string, body: SealFactBody): Promise<{ fact: LedgerFact; created: boolean }>;
  getFact(factId: string): Promise<LedgerFact>;
  listFacts(streamId: string, query?: FactListQuery): Promise<{ facts: LedgerFactListEntry[]; count: number }>;
  /** Every fact of a stream in chain order (pages of 1000), up to `upTo` facts; `onProgress` after each page. */
  listAllFacts(
    streamId: string,
    opts?: { upTo?: number; onProgress?: (fetched: number, total: number) => void },
  ): Promise<LedgerFactListEntry[]>;
  /**
   * The stream's facts in chain order, one page (up to 1000) at a time, from `offset` (default 0) to the
   * end as it is when the last page is read: for reading long streams without holding them.
   */
  factPages(
    streamId: string,
    opts?: { offset?: number; pageSize?: number },
  ): AsyncGenerator<{ facts: LedgerFactListEntry[]; offset: number; count: number }>;
  /** The stream's signed checkpoint at tree_size (default: its current size). */
  getCheckpoint(streamId: string, opts?: { treeSize?: number }): Promise<LedgerCheckpoint>;
  /** The inclusion proof of a fact in the stream's tree at tree_size (default: the current size). */
  getInclusion(factId: string, opts?: { treeSize?: number }): Promise<LedgerInclusionProof>;
  /** The consistency proof between the stream's trees of `from` and `to` facts. */
  getConsistency(streamId: string, from: number, to: number): Promise<LedgerConsistencyProof>;
  createBundle(streamId: string): Promise<ProofBundle>;
  getBundle(bundleId: string): Promise<ProofBundle>;
  verifyStream(streamId: string): Promise<StreamVerification>;
  /** GET /.well-known/ledger-keys (no authentication). */
  keys(): Promise<LedgerKeySet>;
  rotateSigningKey(mode: RotationMode): Promise<LedgerKeyRotation>;
}

export function createLedgerClient(opts: LedgerClientOptions): LedgerClient {
  const raw = createServiceClient<LedgerRoutes>('ledger', opts);
  const listFacts = (stream_id: string, query?: FactListQuery) =>
    unwrap('ledger', raw.GET('/streams/{stream_id}/facts', { params: { path: { stream_id }, query } }));
  async function* factPages(streamId: string, o: { offset?: number; pageSize?: number } = {}) {
    const limit = Math.min(1000, Math.max(1, o.pageSize ?? 1000));
    let offset = o.offset ?? 0;
    for (;;) {
      const page = await listFacts(streamId, { limit, offset });
      yield { facts: page.facts, offset, count: page.count };
      offset += page.facts.length;
      if (page.facts.length < limit) return;
    }
  }
  return {
    service: 'ledger',
    baseUrl: opts.baseUrl.replace(/\/+$/, ''),
    raw,
    whoami: () => unwrap('ledger', raw.GET('/v1/whoami')),
    async seal(stream_id, body) {
      const { data, response } = await unwrapWithResponse(
        'ledger',
        raw.POST('/streams/{stream_id}/facts', { params: { path: { stream_id } }, body }),
      );
      return { fact: data, created: response.status === 201 };
    },
    getFact: (fact_id) => unwrap('ledger', raw.GET('/facts/{fact_id}', { params: { path: { fact_id } } })),
    listFacts,
    async listAllFacts(streamId, o = {}) {
      const facts: LedgerFactListEntry[] = [];
      for (;;) {
        const want = o.upTo === undefined ? 1000 : Math.min(1000, o.upTo - facts.length);
        if (want <= 0) break;
        const page = await listFacts(streamId, { limit: want, offset: facts.length });
        facts.push(...page.facts);
        o.onProgress?.(facts.length, o.upTo === undefined ? page.count : Math.min(o.upTo, page.count));
        if (page.facts.length < want) break;
      }
      return facts;
    },
    factPages,
    getCheckpoint: (stream_id, o = {}) =>
      unwrap(
        'ledger',
        raw.GET('/streams/{stream_id}/checkpoint', {
          params: { path: { stream_id }, query: o.treeSize === undefined ? undefined : { tree_size: o.treeSize } },
        }),
      ),
    getInclusion: (fact_id, o = {}) =>
      unwrap(
        'ledger',
        raw.GET('/facts/{fact_id}/inclusion', {
          params: { path: { fact_id }, query: o.treeSize === undefined ? undefined : { tree_size: o.treeSize } },
        }),
      ),
    getConsistency: (stream_id, from, to) =>
      unwrap('ledger', raw.GET('/streams/{stream_id}/consistency', { params: { path: { stream_id }, query: { from, to } } })),
    createBundle: (stream_id) => unwrap('ledger', raw.POST('/streams/{stream_id}/bundles', { params: { path: { stream_id } } })),
    getBundle: (bundle_id) => unwrap('ledger', raw.GET('/bundles/{bundle_id}', { params: { path: { bundle_id } } })),
    verifyStream: (stream_id) => unwrap('ledger', raw.POST('/streams/{stream_id}/verify', { params: { path: { stream_id } } })),
    keys: () => unwrap('ledger', raw.GET('/.well-known/ledger-keys')),
    rotateSigningKey: (mode) => unwrap('ledger', raw.POST('/admin/signing-keys/rotate', { body: { mode } })),
  };
}
