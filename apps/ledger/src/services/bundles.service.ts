import type { AuthenticatedIdentity } from '@arbiter/auth';
import { bytesToBase64 } from '@arbiter/crypto';
import { newId } from '@arbiter/db';
import { AppError } from '@arbiter/http';
import { describeBreak } from '../domain/chain';
import { BUNDLE_VERSION, bundleSigningInput, isoOf, SIGNATURE_ALG, type UnsignedBundle } from '../domain/bundle-format';
import type { BundlesRepository } from '../repositories/bundles.repository';
import type { BundlePage, ProofBundle } from '../models/ledger';
import { notFound } from '../domain/errors';
import type { FactsService } from './facts.service';
import type { LedgerKeys } from '../keys';
import type { VerifyService } from './verify.service';
import { presentBundle, presentBundleSummary } from '../presenters/ledger';
import { readCursor, readLimit, toPage } from '../domain/pagination';

/**
 * Proof bundles (docs/ledger-formats.md "Proof bundle"): a signed snapshot of a stream up to its head. The chain is walked
 * before signing, so the service never signs a head whose stored chain does not verify.
 */
export class BundlesService {
  constructor(
    private readonly facts: FactsService,
    private readonly verifier: VerifyService,
    private readonly repo: BundlesRepository,
    private readonly keys: LedgerKeys,
    private readonly now: () => number = Date.now,
  ) {}

  async create(caller: AuthenticatedIdentity, streamId: string): Promise<ProofBundle> {
    const stream = await this.facts.ownedStream(caller, streamId);
    const manifest: string[] = [];
    const report = await this.verifier.walk(stream, (f) => manifest.push(f.fact_id));
    if (report.broken) {
      // Stored data that fails its own hash chain is corruption, not a caller error: refuse to sign it.
      throw new AppError(500, 'INTERNAL_ERROR', `Refusing to sign a bundle: ${describeBreak(report.broken)}`);
    }
    const now = this.now();
    const signer = await this.keys.signer(new Date(now));
    // Only differs from now when another replica's clock, ahead of ours, made the current key.
    const createdAt = Math.max(now, signer.notBeforeMs);
    const unsigned: UnsignedBundle = {
      bundle_id: newId('bnd-'),
      stream_id: stream.stream_id,
      tenant_id: stream.tenant_id,
      bundle_version: BUNDLE_VERSION,
      head_fact_id: stream.head_fact_id as string,
      head_hash: stream.head_hash,
      facts_manifest: manifest,
      created_at_ms: createdAt,
      created_at_iso: isoOf(createdAt),
      signature_alg: SIGNATURE_ALG,
      key_id: signer.kid,
    };
    const signature = bytesToBase64(signer.sign(bundleSigningInput(unsigned)));
    const { created_at_iso: _iso, ...row } = unsigned;
    return presentBundle(await this.repo.create({ ...row, tenant_id: stream.tenant_id, fact_count: manifest.length, signature }));
  }

  async list(caller: AuthenticatedIdentity, streamId: string, q: { limit?: number; cursor?: string }): Promise<BundlePage> {
    const stream = await this.facts.ownedStream(caller, streamId);
    const limit = readLimit(q.limit);
    const after = readCursor(q.cursor);
    const rows = await this.repo.list(stream, limit + 1, after && { created_at_ms: after.at, bundle_id: after.id });
    return toPage(rows, limit, (b) => ({ at: Number(b.created_at_ms), id: b.bundle_id }), presentBundleSummary);
  }

  async get(caller: AuthenticatedIdentity, bundleId: string): Promise<ProofBundle> {
    const row = await this.repo.find(caller.tenant_id, bundleId);
    if (!row) throw notFound('Bundle', bundleId);
    return presentBundle(row);
  }
}
