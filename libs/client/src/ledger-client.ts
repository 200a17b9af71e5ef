// The fact ledger's client (docs/ledger-formats.md), typed by the generated paths of apps/ledger/openapi.json.
import type { Client } from 'openapi-fetch';
import { createServiceClient, unwrap, unwrapWithResponse, type ServiceClientOptions } from './http';
import type { Identity, LedgerFact, LedgerFactListEntry, LedgerKeyRotation, LedgerKeySet, LedgerPaths, ProofBundle, RotationMode, SealFactBody, StreamVerification } from './types';

export type LedgerClientOptions = ServiceClientOptions;

type FactListQuery = NonNullable<LedgerPaths['/streams/{stream_id}/facts']['get']['parameters']['query']>;

export interface LedgerClient {
  readonly service: 'ledger';
  readonly baseUrl: string;
  readonly raw: Client<LedgerPaths>;
  whoami(): Promise<Identity>;
  /** Seals a fact; `created` is false when client_ref was used before and the original fact came back. */
  seal(streamId: string, body: SealFactBody): Promise<{ fact: LedgerFact; created: boolean }>;
  getFact(factId: string): Promise<LedgerFact>;
  listFacts(streamId: string, query?: FactListQuery): Promise<{ facts: LedgerFactListEntry[]; count: number }>;
  /** Every fact of a stream in chain order (pages of 1000), up to `upTo` facts; `onProgress` after each page. */
  listAllFacts(streamId: string, opts?: { upTo?: number; onProgress?: (fetched: number, total: number) => void }): Promise<LedgerFactListEntry[]>;
  createBundle(streamId: string): Promise<ProofBundle>;
  getBundle(bundleId: string): Promise<ProofBundle>;
  verifyStream(streamId: string): Promise<StreamVerification>;
  /** GET /.well-known/ledger-keys (no authentication). */
  keys(): Promise<LedgerKeySet>;
  rotateSigningKey(mode: RotationMode): Promise<LedgerKeyRotation>;
}

export function createLedgerClient(opts: LedgerClientOptions): LedgerClient {
  const raw = createServiceClient<LedgerPaths>('ledger', opts);
  const listFacts = (stream_id: string, query?: FactListQuery) => unwrap('ledger', raw.GET('/streams/{stream_id}/facts', { params: { path: { stream_id }, query } }));
  return {
    service: 'ledger',
    baseUrl: opts.baseUrl.replace(/\/+$/, ''),
    raw,
    whoami: () => unwrap('ledger', raw.GET('/v1/whoami')),
    async seal(stream_id, body) {
      const { data, response } = await unwrapWithResponse('ledger', raw.POST('/streams/{stream_id}/facts', { params: { path: { stream_id } }, body }));
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
    createBundle: (stream_id) => unwrap('ledger', raw.POST('/streams/{stream_id}/bundles', { params: { path: { stream_id } } })),
    getBundle: (bundle_id) => unwrap('ledger', raw.GET('/bundles/{bundle_id}', { params: { path: { bundle_id } } })),
    verifyStream: (stream_id) => unwrap('ledger', raw.POST('/streams/{stream_id}/verify', { params: { path: { stream_id } } })),
    keys: () => unwrap('ledger', raw.GET('/.well-known/ledger-keys')),
    rotateSigningKey: (mode) => unwrap('ledger', raw.POST('/admin/signing-keys/rotate', { body: { mode } })),
  };
}
