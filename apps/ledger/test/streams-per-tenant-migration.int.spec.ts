import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Pool } from 'pg';
import { mintTenantId } from '@arbiter/auth';
import { canonicalJson } from '@arbiter/canonical';
import { applyMigrations, createPool, createPrismaClient } from '@arbiter/db';
import { factLeaf, foldPerfect } from '@arbiter/merkle';
import { createTestDatabase, schemaMismatches } from '@arbiter/testing';
import { PrismaClient } from '../src/generated/prisma/client';
import { ledgerMigrationsDir } from '../src/context';
import { computeFactHash, GENESIS_PREV_HASH } from '../src/domain/fact-hash';
import { LedgerRepository } from '../src/repositories/ledger.repository';
import { MerkleRepository } from '../src/repositories/merkle.repository';
import { MerkleTree } from '../src/services/merkle-tree.service';
import { SealQueue } from '../src/services/seal-queue.service';
import { VerifyService } from '../src/services/verify.service';

/**
 * The migrations that made stream ids per tenant and recorded the sealer
 * (prisma/ledger/migrations/20261227100000_facts_sealed_by, 20261227100001_streams_per_tenant), applied to a
 * database populated by the migrations before them: the rows they move must keep verifying with today's code.
 */
const FIRST_NEW = '20261227100000_facts_sealed_by';
const A = mintTenantId('tnt-aaaaaaaaaaaaaaaaaaaaaaaa');
const B = mintTenantId('tnt-bbbbbbbbbbbbbbbbbbbbbbbb');

/** The migrations folder as it was before this change: the earlier migrations only. */
function earlierMigrations(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'arbiter-ledger-migrations-'));
  for (const name of readdirSync(ledgerMigrationsDir())) {
    if (name < FIRST_NEW) cpSync(path.join(ledgerMigrationsDir(), name), path.join(dir, name), { recursive: true });
  }
  return dir;
}

/** A stream of `n` facts as the ledger sealed them before sealers were recorded, written with the old columns. */
async function sealOld(pool: Pool, tenantId: string, streamId: string, n: number): Promise<string[]> {
  let prev: string = GENESIS_PREV_HASH;
  let parent: string | null = null;
  const hashes: string[] = [];
  for (let seq = 1; seq <= n; seq++) {
    const factId = `fct-${tenantId.slice(4, 8)}${streamId.length.toString(16).padStart(4, '0')}${seq.toString(16).padStart(16, '0')}`;
    const payload = canonicalJson({ seq, stream: streamId });
    const fields = {
      fact_id: factId,
      stream_id: streamId,
      tenant_id: tenantId,
      actor: 'agent:old',
      sealed_at_ms: 1_790_000_000_000 + seq,
      prev_hash: prev,
    };
    const hash = computeFactHash(fields, payload);
    if (seq === 1) {
      await pool.query(
        `INSERT INTO streams (stream_id, tenant_id, head_seq, head_fact_id, head_hash, head_sealed_at_ms, created_at_ms, updated_at_ms) VALUES ($1, $2, 0, NULL, $3, 0, 1, 1)`,
        [streamId, tenantId, GENESIS_PREV_HASH],
      );
    }
    await pool.query(
      `INSERT INTO facts (fact_id, stream_id, seq, tenant_id, actor, sealed_at_ms, custom_payload, prev_hash, fact_hash, parent_fact_id, client_ref)
       VALUES ($1, $2, $3, $4, $5, $6, $7::json, $8, $9, $10, $11)`,
      [factId, streamId, seq, tenantId, fields.actor, fields.sealed_at_ms, payload, prev, hash, parent, `ref-${seq}`],
    );
    hashes.push(hash);
    prev = hash;
    parent = factId;
  }
  await pool.query(`UPDATE streams SET head_seq = $2, head_fact_id = $3, head_hash = $4, head_sealed_at_ms = $5 WHERE stream_id = $1`, [
    streamId,
    n,
    parent,
    prev,
    1_790_000_000_000 + n,
  ]);
  return hashes;
}

describe('ledger migrations to per-tenant streams and recorded sealers', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it("moves a populated database: every stream, fact, bundle and Merkle node into its tenant's namespace, still verifying", async () => {
    const db = await createTestDatabase('ledger_streams_per_tenant');
    const pool = createPool({ url: db.url, max: 4 });
    const prisma = createPrismaClient(PrismaClient, pool);
    try {
      const old = earlierMigrations();
      dirs.push(old);
      await applyMigrations(db.url, old);
      // Before: A owns `orders` (20 facts, so one stored Merkle node of 16 leaves, and a bundle), B owns `kyc-checks`.
      const orders = await sealOld(pool, A, 'orders', 20);
      await sealOld(pool, B, 'kyc-checks', 3);
      const node = foldPerfect(orders.slice(0, 16).map(factLeaf));
      await pool.query(`INSERT INTO merkle_nodes (stream_id, level, idx, hash) VALUES ('orders', 4, 0, $1)`, [Buffer.from(node)]);
      await pool.query(
        `INSERT INTO signing_keys (kid, owner_id, epoch, algorithm, public_jwk, encrypted_private_key, not_before) VALUES ('ledger:2026', 'ledger', '2026', 'Ed25519', '{}', 'x', now())`,
      );
      await pool.query(
        `INSERT INTO bundles (bundle_id, stream_id, tenant_id, bundle_version, head_fact_id, head_hash, fact_count, facts_manifest, created_at_ms, signature, signature_alg, key_id)
         SELECT 'bnd-000000000000000000000001', stream_id, tenant_id, 1, head_fact_id, head_hash, head_seq, ARRAY[head_fact_id], 2, 'sig', 'ed25519', 'ledger:2026' FROM streams WHERE stream_id = 'orders'`,
      );
      const count = async () =>
        (
          await pool.query(
            `SELECT (SELECT count(*) FROM streams)::int AS s, (SELECT count(*) FROM facts)::int AS f, (SELECT count(*) FROM bundles)::int AS b, (SELECT count(*) FROM merkle_nodes)::int AS m`,
          )
        ).rows[0];
      const before = await count();

      const applied = await applyMigrations(db.url, ledgerMigrationsDir());
      // These two, and whatever later migrations the ledger has.
      expect(applied.applied.slice(0, 2)).toEqual(['20261227100000_facts_sealed_by', '20261227100001_streams_per_tenant']);
      expect(await count()).toEqual(before);
      expect(await schemaMismatches(prisma, pool)).toEqual([]);
      const { rows: nodes } = await pool.query(`SELECT tenant_id, stream_id, level, idx::int FROM merkle_nodes`);
      expect(nodes).toEqual([{ tenant_id: A, stream_id: 'orders', level: 4, idx: 0 }]);
      expect((await prisma.bundle.findFirst({ where: { tenant_id: A, bundle_id: 'bnd-000000000000000000000001' } }))?.stream_id).toBe(
        'orders',
      );

      // The moved chains verify with today's code; the facts have no sealer.
      const repo = new LedgerRepository(pool);
      const verify = new VerifyService(repo, 7);
      const ownOrders = (await repo.findStream(A, 'orders'))!;
      expect(await verify.walk(ownOrders)).toMatchObject({ factsVerified: 20, broken: null });
      expect((await repo.findFact(A, ownOrders.head_fact_id!))?.sealed_by).toBeNull();
      expect(await repo.findStream(B, 'orders')).toBeNull();
      // The stored node is read where it was, under its tenant (the proofs read it rather than recompute it).
      const tree = new MerkleTree(new MerkleRepository(pool));
      expect(await tree.subtrees(ownOrders, [{ level: 4, index: 0 }])).toEqual([node]);

      // A seal continues A's chain after the old head, with its sealer; B makes its own `orders` now.
      const queue = new SealQueue(pool, repo, { maxBatch: 10 });
      const seal = (tenantId: typeof A, streamId: string, sealedBy: string, clientRef: string | null = null) =>
        queue.seal({ tenantId, streamId, actor: 'agent:new', sealedBy, payloadText: canonicalJson({ new: true }), clientRef });
      const next = await seal(A, 'orders', 'agn-00000000000000000000000a');
      expect(next.fact).toMatchObject({ seq: 21, prev_hash: orders[19], sealed_by: 'agn-00000000000000000000000a' });
      // An old client_ref still answers its old fact.
      expect(await seal(A, 'orders', 'agn-00000000000000000000000a', 'ref-3')).toMatchObject({
        created: false,
        fact: { seq: 3, sealed_by: null },
      });
      const theirs = await seal(B, 'orders', 'agn-00000000000000000000000b');
      expect(theirs.fact).toMatchObject({ tenant_id: B, seq: 1, prev_hash: GENESIS_PREV_HASH });
      expect(await verify.walk((await repo.findStream(A, 'orders'))!)).toMatchObject({ factsVerified: 21, broken: null });
      expect(await verify.walk((await repo.findStream(B, 'orders'))!)).toMatchObject({ factsVerified: 1, broken: null });
      await queue.idle();
    } finally {
      await prisma.$disconnect();
      await pool.end();
      await db.drop();
    }
  });

  it("refuses, and changes nothing, when a fact names another tenant than its stream's", async () => {
    const db = await createTestDatabase('ledger_streams_per_tenant_bad');
    const pool = createPool({ url: db.url, max: 2 });
    try {
      const old = earlierMigrations();
      dirs.push(old);
      await applyMigrations(db.url, old);
      await sealOld(pool, A, 'orders', 2);
      await pool.query(`UPDATE facts SET tenant_id = $1 WHERE seq = 2`, [B]);
      await expect(applyMigrations(db.url, ledgerMigrationsDir())).rejects.toThrow(
        /1 fact\(s\) name another tenant than their stream's owner/,
      );
      // Each migration is one transaction: the failed one left nothing behind.
      const { rows } = await pool.query(
        `SELECT count(*)::int AS n FROM information_schema.columns WHERE table_name = 'merkle_nodes' AND column_name = 'tenant_id'`,
      );
      expect(rows[0].n).toBe(0);
    } finally {
      await pool.end();
      await db.drop();
    }
  });
});
