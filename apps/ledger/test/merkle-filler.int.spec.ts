import { createHash } from 'node:crypto';
import type { Pool } from 'pg';
import pino from 'pino';
import { mintTenantId } from '@arbiter/auth';
import { canonicalJson } from '@arbiter/canonical';
import { applyMigrations, createPool } from '@arbiter/db';
import { createTestDatabase } from '@arbiter/testing';
import { ledgerMigrationsDir } from '../src/context';
import { LedgerRepository } from '../src/repositories/ledger.repository';
import { MerkleRepository } from '../src/repositories/merkle.repository';
import { MerkleTree } from '../src/services/merkle-tree.service';
import { SealQueue } from '../src/services/seal-queue.service';

const TENANT_A = mintTenantId('tnt-a');
const TENANT_B = mintTenantId('tnt-b');

/** RFC 9162 section 2.1.1 Merkle tree hash, written here apart from libs/merkle: leaf 0x00 || data, node 0x01 || left || right. */
function mth(leaves: Buffer[]): Buffer {
  if (leaves.length === 1)
    return createHash('sha256')
      .update(Buffer.concat([Buffer.of(0), leaves[0]]))
      .digest();
  let k = 1;
  while (k * 2 < leaves.length) k *= 2;
  return createHash('sha256')
    .update(Buffer.concat([Buffer.of(1), mth(leaves.slice(0, k)), mth(leaves.slice(k))]))
    .digest();
}
/** The leaf data of a fact: the 32 bytes of its fact_hash (docs/ledger-formats.md). */
const leafOf = (factHash: string) => Buffer.from(factHash.slice('sha256:'.length), 'hex');

describe(MerkleTree.name, () => {
  let db: { url: string; drop(): Promise<void> };
  let pool: Pool;
  const warnings: unknown[] = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(JSON.parse(line)) });

  beforeAll(async () => {
    db = await createTestDatabase('merkle_filler');
    await applyMigrations(db.url, ledgerMigrationsDir());
    pool = createPool({ url: db.url, max: 4 });
  });
  afterAll(async () => {
    await pool.end();
    await db.drop();
  });

  function sealer() {
    const sut = new MerkleTree(new MerkleRepository(pool), logger);
    const queue = new SealQueue(pool, new LedgerRepository(pool), {
      maxBatch: 7,
      onAppended: (stream, from, to, factHashes) => sut.noteAppended(stream, from, to, factHashes),
    });
    const seal = (tenantId: typeof TENANT_A, streamId: string, count: number) =>
      Promise.all(
        Array.from({ length: count }, (_, i) =>
          queue.seal({ tenantId, streamId, actor: 'agent:a', sealedBy: 'agn-1', payloadText: canonicalJson({ i }), clientRef: null }),
        ),
      );
    return { sut, queue, seal };
  }

  const facts = async (tenantId: string, streamId: string) =>
    (
      await pool.query<{ fact_hash: string }>('SELECT fact_hash FROM facts WHERE tenant_id = $1 AND stream_id = $2 ORDER BY seq', [
        tenantId,
        streamId,
      ])
    ).rows.map((r) => leafOf(r.fact_hash));
  const nodes = async (tenantId: string, streamId: string) =>
    (
      await pool.query<{ level: number; idx: string; hash: Buffer }>(
        'SELECT level, idx, hash FROM merkle_nodes WHERE tenant_id = $1 AND stream_id = $2 ORDER BY level, idx',
        [tenantId, streamId],
      )
    ).rows.map((r) => ({
      level: r.level,
      idx: Number(r.idx),
      hash: r.hash,
    }));

  it("stores each completed block of every tenant's streams, and the level above, each the MTH of its leaves", async () => {
    const { sut, queue, seal } = sealer();
    await Promise.all([seal(TENANT_A, 'orders', 300), seal(TENANT_B, 'orders', 40), seal(TENANT_A, 'other', 15)]);
    await queue.idle();
    await sut.idle();
    for (const [tenantId, streamId, blocks, above] of [
      [TENANT_A, 'orders', 18, 1],
      [TENANT_B, 'orders', 2, 0],
      [TENANT_A, 'other', 0, 0],
    ] as const) {
      const leaves = await facts(tenantId, streamId);
      const stored = await nodes(tenantId, streamId);
      expect(stored.map(({ level, idx }) => ({ level, idx }))).toEqual([
        ...Array.from({ length: blocks }, (_, idx) => ({ level: 4, idx })),
        ...Array.from({ length: above }, (_, idx) => ({ level: 8, idx })),
      ]);
      for (const n of stored) expect(n.hash.equals(mth(leaves.slice(n.idx * 2 ** n.level, (n.idx + 1) * 2 ** n.level)))).toBe(true);
    }
  });

  it('leaves a different node stored before it as it is, and says so (fails closed)', async () => {
    const { sut, queue, seal } = sealer();
    const forged = Buffer.alloc(32, 7);
    await seal(TENANT_B, 'forged', 1);
    await queue.idle();
    await pool.query('INSERT INTO merkle_nodes (tenant_id, stream_id, level, idx, hash) VALUES ($1, $2, 4, 0, $3)', [
      TENANT_B,
      'forged',
      forged,
    ]);
    warnings.length = 0;
    await seal(TENANT_B, 'forged', 40);
    await queue.idle();
    await sut.idle();
    const stored = await nodes(TENANT_B, 'forged');
    expect(stored.find((n) => n.level === 4 && n.idx === 0)!.hash.equals(forged)).toBe(true);
    expect(JSON.stringify(warnings)).toMatch(/differs from the one its children make/);
  });
});
