import { createHash, generateKeyPairSync } from 'node:crypto';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import { checkpointSignatureHolds, consistencyHolds, inclusionHolds, type PublishedLedgerKey } from './evidence-harness';
import { createLedgerTenant, ledgerClient, sealBody, type LedgerTenant } from './ledger-harness';
import { startStack, type Stack } from './stack';
import { eventually } from '@arbiter/testing';

// Merkle proofs of the ledger over HTTP (docs/evidence.md "Proofs"), checked with an implementation
// of RFC 9162 section 2.1 written here with node:crypto only (not @arbiter/merkle, which the ledger uses).

const sha256 = (...parts: Buffer[]) => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
};
const hex = (digest: string) => {
  expect(digest).toMatch(/^sha256:[0-9a-f]{64}$/);
  return Buffer.from(digest.slice(7), 'hex');
};
const text = (b: Buffer) => `sha256:${b.toString('hex')}`;
/** 2.1.1: leaf = SHA-256(0x00 || 32 bytes of fact_hash); node = SHA-256(0x01 || left || right). */
const leaf = (factHash: string) => sha256(Buffer.from([0]), hex(factHash));
const node = (l: Buffer, r: Buffer) => sha256(Buffer.from([1]), l, r);
/** k: the largest power of two smaller than n. */
const split = (n: number) => {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
};
/** 2.1.1 MTH(D[n]). */
const mth = (d: Buffer[]): Buffer => (d.length === 1 ? d[0] : node(mth(d.slice(0, split(d.length))), mth(d.slice(split(d.length)))));
/** 2.1.3.1 PATH(m, D[n]). */
const pathOf = (m: number, d: Buffer[]): Buffer[] => {
  if (d.length === 1) return [];
  const k = split(d.length);
  return m < k ? [...pathOf(m, d.slice(0, k)), mth(d.slice(k))] : [...pathOf(m - k, d.slice(k)), mth(d.slice(0, k))];
};
/** 2.1.4.1 PROOF(m, D[n]). */
const subproof = (m: number, d: Buffer[], b: boolean): Buffer[] => {
  if (m === d.length) return b ? [] : [mth(d)];
  const k = split(d.length);
  return m <= k ? [...subproof(m, d.slice(0, k), b), mth(d.slice(k))] : [...subproof(m - k, d.slice(k), false), mth(d.slice(0, k))];
};

interface Checkpoint {
  stream_id: string;
  tree_size: number;
  root_hash: string;
  created_at_ms: number;
  key_id: string;
  signature_alg: string;
  signature: string;
}

const { verifyInclusion: scriptVerify } = require('../../scripts/verify-inclusion.mjs') as {
  verifyInclusion(input: { inclusion: object; keys: object; fact?: object }): {
    valid: boolean;
    errors: string[];
    leaf_checked_against: string | null;
  };
};
const execFileP = promisify(execFile);

const GENEROUS = { rate_limit: { requests_per_minute: 10_000_000, burst: 1_000_000 } };

describe('ledger Merkle proofs (RFC 9162)', () => {
  let stack: Stack;
  let t: LedgerTenant;
  let other: LedgerTenant;
  let keySet: { keys: PublishedLedgerKey[] };
  const small = 'proofs-70';
  const big = 'proofs-600';
  /** fact_hash and fact_id of each stream's facts, in chain order. */
  const facts = new Map<string, Array<{ fact_id: string; fact_hash: string }>>();
  const leaves = (streamId: string, n: number) =>
    facts
      .get(streamId)!
      .slice(0, n)
      .map((f) => leaf(f.fact_hash));
  const read = () => ledgerClient(stack.ledger.url, t.readOnlyKey);

  async function seal(streamId: string, count: number, concurrent: number) {
    const c = ledgerClient(stack.ledger.url, t.writerKey);
    for (let done = 0; done < count; done += concurrent) {
      const n = Math.min(concurrent, count - done);
      await Promise.all(
        Array.from({ length: n }, (_, i) =>
          c.post(`/streams/${streamId}/facts`, sealBody(t.tenantId, { custom_payload: { i: done + i } })).expect(201),
        ),
      );
    }
    const list: Array<{ fact_id: string; fact_hash: string }> = [];
    for (let offset = 0; offset < count; offset += 1000) {
      const page = (await read().get(`/streams/${streamId}/facts?limit=1000&offset=${offset}`).expect(200)).body.facts as Array<{
        fact_id: string;
      }>;
      // List entries carry no fact_hash: read each fact (in parallel, a few at a time).
      for (let i = 0; i < page.length; i += 50) {
        list.push(
          ...(await Promise.all(page.slice(i, i + 50).map(async (f) => (await read().get(`/facts/${f.fact_id}`).expect(200)).body))),
        );
      }
    }
    facts.set(streamId, list);
  }

  const checkSignature = (c: Checkpoint) => {
    expect(keySet.keys.find((k) => k.kid === c.key_id)).toBeDefined();
    return checkpointSignatureHolds({ ...c }, keySet.keys);
  };

  async function expectInclusion(streamId: string, m: number, n: number) {
    const f = facts.get(streamId)![m];
    const res = await read().get(`/facts/${f.fact_id}/inclusion?tree_size=${n}`).expect(200);
    const d = leaves(streamId, n);
    expect(res.body).toEqual({
      fact_id: f.fact_id,
      leaf_index: m,
      tree_size: n,
      inclusion_path: pathOf(m, d).map(text),
      checkpoint: expect.objectContaining({ stream_id: streamId, tree_size: n, root_hash: text(mth(d)) }),
    });
    expect(inclusionHolds(f.fact_hash, m, n, res.body.inclusion_path, res.body.checkpoint.root_hash)).toBe(true);
    expect(checkSignature(res.body.checkpoint)).toBe(true);
    return res.body;
  }

  async function expectConsistency(streamId: string, m: number, n: number, withCheckpoints = false) {
    const res = await read().get(`/streams/${streamId}/consistency?from=${m}&to=${n}`).expect(200);
    const d = leaves(streamId, n);
    expect(res.body).toEqual({ from: m, to: n, consistency_path: subproof(m, d, true).map(text) });
    expect(consistencyHolds(m, n, res.body.consistency_path, text(mth(d.slice(0, m))), text(mth(d)))).toBe(true);
    if (!withCheckpoints) return;
    // and against the signed checkpoints of both sizes
    const [a, b] = await Promise.all(
      [m, n].map(async (s) => (await read().get(`/streams/${streamId}/checkpoint?tree_size=${s}`).expect(200)).body as Checkpoint),
    );
    expect(consistencyHolds(m, n, res.body.consistency_path, a.root_hash, b.root_hash)).toBe(true);
  }

  const storedNodes = async (streamId: string) =>
    (
      await stack
        .db('ledger')
        .query<{ level: number; idx: string; hash: Buffer }>(
          'SELECT level, idx, hash FROM merkle_nodes WHERE stream_id = $1 ORDER BY level, idx',
          [streamId],
        )
    ).rows.map((r) => ({
      level: r.level,
      idx: Number(r.idx),
      hash: r.hash,
    }));

  beforeAll(async () => {
    stack = await startStack({ ledger: true });
    [t, other] = await Promise.all([createLedgerTenant(stack, GENEROUS), createLedgerTenant(stack, GENEROUS)]);
    keySet = (await request(stack.ledger.url).get('/.well-known/ledger-keys').expect(200)).body;
    await seal(small, 70, 1);
    await seal(big, 600, 50);
  }, 180_000);
  afterAll(async () => {
    await stack.stop();
  });

  it('signs a checkpoint at every size 1..70 whose root is MTH of the first facts, verified with node:crypto Ed25519', async () => {
    for (let n = 1; n <= 70; n++) {
      const c: Checkpoint = (await read().get(`/streams/${small}/checkpoint?tree_size=${n}`).expect(200)).body;
      expect(c).toEqual({
        stream_id: small,
        tree_size: n,
        root_hash: text(mth(leaves(small, n))),
        created_at_ms: expect.any(Number),
        key_id: expect.stringMatching(/^ledger:/),
        signature_alg: 'Ed25519',
        signature: expect.any(String),
      });
      expect(checkSignature(c)).toBe(true);
      expect(checkSignature({ ...c, tree_size: n + 1 })).toBe(false);
      expect(checkSignature({ ...c, root_hash: text(Buffer.alloc(32)) })).toBe(false);
    }
    const current = (await read().get(`/streams/${small}/checkpoint`).expect(200)).body;
    expect(current).toMatchObject({ tree_size: 70, root_hash: text(mth(leaves(small, 70))) });
  });

  it('proves the inclusion of every fact at every tree size up to 70', async () => {
    for (let n = 1; n <= 70; n++) {
      const all = Array.from({ length: n }, (_, m) => m);
      for (let i = 0; i < all.length; i += 16) await Promise.all(all.slice(i, i + 16).map((m) => expectInclusion(small, m, n)));
    }
    // Without tree_size: the current size.
    const last = facts.get(small)![69];
    expect((await read().get(`/facts/${last.fact_id}/inclusion`).expect(200)).body).toMatchObject({ leaf_index: 69, tree_size: 70 });
  }, 120_000);

  it('proves consistency between every pair of sizes up to 32, and many pairs up to 70', async () => {
    for (let n = 1; n <= 70; n++) {
      const all =
        n <= 32
          ? Array.from({ length: n }, (_, i) => i + 1)
          : [...new Set([1, 2, 3, 7, 8, 9, 16, 17, 31, 32, 33, n >> 1, n - 1, n].filter((m) => m <= n))];
      for (let i = 0; i < all.length; i += 16) await Promise.all(all.slice(i, i + 16).map((m) => expectConsistency(small, m, n)));
    }
  }, 180_000);

  describe('a stream of 600 facts sealed concurrently (stored nodes of levels 4 and 8)', () => {
    it('stores the completed 16-leaf and 256-leaf blocks after the commits, each the MTH of its leaves', async () => {
      await eventually(`the filler to store 39 Merkle nodes of ${big}`, () => storedNodes(big), {
        until: (nodes) => nodes.length >= 37 + 2,
        timeoutMs: 10_000,
      });
      const nodes = await storedNodes(big);
      const d = leaves(big, 600);
      expect(nodes.map(({ level, idx }) => ({ level, idx }))).toEqual([
        ...Array.from({ length: 37 }, (_, idx) => ({ level: 4, idx })),
        { level: 8, idx: 0 },
        { level: 8, idx: 1 },
      ]);
      for (const n of nodes) expect(n.hash.equals(mth(d.slice(n.idx * 2 ** n.level, (n.idx + 1) * 2 ** n.level)))).toBe(true);
    });

    it('proves inclusion and consistency across the blocks', async () => {
      const cases: Array<[number, number]> = [];
      for (const n of [255, 256, 257, 300, 511, 512, 513, 600]) for (let m = 0; m < n; m += 37) cases.push([m, n]);
      cases.push([599, 600], [511, 512], [512, 513], [0, 600]);
      for (let i = 0; i < cases.length; i += 16) await Promise.all(cases.slice(i, i + 16).map(([m, n]) => expectInclusion(big, m, n)));
      for (const [m, n] of [
        [1, 600],
        [100, 600],
        [256, 600],
        [256, 512],
        [300, 513],
        [512, 600],
        [513, 600],
        [599, 600],
        [600, 600],
        [255, 257],
      ])
        await expectConsistency(big, m, n, true);
    }, 60_000);

    it('answers with stored nodes deleted, and stores them again', async () => {
      const before = await storedNodes(big);
      await stack.db('ledger').query('DELETE FROM merkle_nodes WHERE stream_id = $1', [big]);
      await expectInclusion(big, 5, 600);
      await expectInclusion(big, 300, 600);
      await expectConsistency(big, 256, 600);
      expect(await storedNodes(big)).toEqual(before);
    });

    it('a tampered stored node: proofs that lean on it fail against the root of the facts; a proof below it is refused', async () => {
      const block0 = mth(leaves(big, 256));
      const forged = sha256(Buffer.from('forged'));
      await stack.db('ledger').query('UPDATE merkle_nodes SET hash = $2 WHERE stream_id = $1 AND level = 8 AND idx = 0', [big, forged]);
      try {
        // Leaf 300's path has block 0 as a sibling: the service signs what it stores, and the
        // proof fails against the root computed from the facts.
        const f = facts.get(big)![300];
        const res = await read().get(`/facts/${f.fact_id}/inclusion?tree_size=600`).expect(200);
        expect(res.body.inclusion_path).toContain(text(forged));
        expect(res.body.checkpoint.root_hash).not.toBe(text(mth(leaves(big, 600))));
        expect(inclusionHolds(f.fact_hash, 300, 600, res.body.inclusion_path, text(mth(leaves(big, 600))))).toBe(false);
        // Leaf 5 lies below the forged node: its path rebuilds block 0 from the facts, which
        // disagrees with the stored root, so the service refuses (fails closed) rather than sign.
        const refused = await read().get(`/facts/${facts.get(big)![5].fact_id}/inclusion?tree_size=600`);
        expect(refused.status).toBe(500);
        expect(refused.body.code).toBe('INTERNAL_ERROR');
        // A consistency proof from inside the block to beyond it fails too.
        expect((await read().get(`/streams/${big}/consistency?from=100&to=600`)).status).toBe(500);
      } finally {
        await stack.db('ledger').query('UPDATE merkle_nodes SET hash = $2 WHERE stream_id = $1 AND level = 8 AND idx = 0', [big, block0]);
      }
      await expectInclusion(big, 5, 600);
    });
  });

  describe('errors', () => {
    it("answers 404 for another tenant's stream and fact, as for unknown ones", async () => {
      const o = ledgerClient(stack.ledger.url, other.readOnlyKey);
      const f = facts.get(small)![0];
      for (const p of [
        `/streams/${small}/checkpoint`,
        `/facts/${f.fact_id}/inclusion`,
        `/streams/${small}/consistency?from=1&to=2`,
        '/streams/nope/checkpoint',
        '/facts/fct-nope/inclusion',
      ]) {
        const res = await o.get(p);
        expect(res.status).toBe(404);
        expect(res.body.code).toBe('NOT_FOUND');
      }
    });

    it('needs the read permission', async () => {
      const res = await ledgerClient(stack.ledger.url, t.sealOnlyKey).get(`/streams/${small}/checkpoint`);
      expect(res.status).toBe(403);
      expect((await request(stack.ledger.url).get(`/streams/${small}/checkpoint`)).status).toBe(401);
    });

    const f = () => facts.get(small)![9]; // sequence 10
    it.each([
      ['checkpoint tree_size=0', () => `/streams/${small}/checkpoint?tree_size=0`, 'tree_size'],
      ['checkpoint tree_size=71', () => `/streams/${small}/checkpoint?tree_size=71`, 'tree_size'],
      ['checkpoint tree_size=-1', () => `/streams/${small}/checkpoint?tree_size=-1`, 'tree_size'],
      ['checkpoint tree_size=1.5', () => `/streams/${small}/checkpoint?tree_size=1.5`, 'tree_size'],
      ['checkpoint tree_size=abc', () => `/streams/${small}/checkpoint?tree_size=abc`, 'tree_size'],
      ['inclusion below the fact', () => `/facts/${f().fact_id}/inclusion?tree_size=9`, 'tree_size'],
      ['inclusion beyond the stream', () => `/facts/${f().fact_id}/inclusion?tree_size=71`, 'tree_size'],
      ['inclusion tree_size=x', () => `/facts/${f().fact_id}/inclusion?tree_size=x`, 'tree_size'],
      ['consistency without from', () => `/streams/${small}/consistency?to=3`, 'from'],
      ['consistency without to', () => `/streams/${small}/consistency?from=3`, 'to'],
      ['consistency from=0', () => `/streams/${small}/consistency?from=0&to=3`, 'from'],
      ['consistency from > to', () => `/streams/${small}/consistency?from=4&to=3`, 'from'],
      ['consistency to beyond the stream', () => `/streams/${small}/consistency?from=1&to=71`, 'to'],
      ['consistency from=x', () => `/streams/${small}/consistency?from=x&to=3`, 'from'],
    ])('answers 400 VALIDATION_ERROR naming the parameter: %s', async (_label, url, field) => {
      const res = await read().get(url());
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      expect(JSON.stringify(res.body.details)).toContain(field);
    });
  });

  describe('scripts/verify-inclusion.mjs (no project imports)', () => {
    let work: string;
    beforeAll(async () => {
      work = await mkdtemp(path.join(os.tmpdir(), 'verify-inclusion-'));
    });
    afterAll(async () => {
      await rm(work, { recursive: true, force: true });
    });

    /**
     * The script on files; `trust` gives the ledger keys as a trust file (--trust) instead of --keys, of the fact's
     * tenant unless `trustTenant` names another.
     */
    async function runScript(
      inclusion: object,
      fact?: object,
      trust?: { keys: unknown[] },
      trustTenant?: string,
    ): Promise<{ code: number; report: { valid: boolean; errors: string[]; tenant_id?: string | null } }> {
      const dir = await mkdtemp(path.join(work, 'case-'));
      const files = { inclusion: path.join(dir, 'inclusion.json'), keys: path.join(dir, 'keys.json'), fact: path.join(dir, 'fact.json') };
      const tenantId = trustTenant ?? (fact as { tenant_id?: string } | undefined)?.tenant_id ?? 'tnt-any';
      const keys = trust ? { format: 'arbiter.trust', version: 1, tenant_id: tenantId, jwks: { keys: [] }, ledger_keys: trust } : keySet;
      await Promise.all([
        writeFile(files.inclusion, JSON.stringify(inclusion)),
        writeFile(files.keys, JSON.stringify(keys)),
        writeFile(files.fact, JSON.stringify(fact ?? {})),
      ]);
      const args = [
        path.resolve(__dirname, '../../scripts/verify-inclusion.mjs'),
        '--inclusion',
        files.inclusion,
        trust ? '--trust' : '--keys',
        files.keys,
        ...(fact ? ['--fact', files.fact] : []),
      ];
      try {
        const { stdout } = await execFileP(process.execPath, args);
        return { code: 0, report: JSON.parse(stdout) };
      } catch (err) {
        const e = err as { code: number; stdout: string };
        return { code: e.code, report: JSON.parse(e.stdout) };
      }
    }

    /** The script on the texts given as they are, with --keys. */
    async function runRaw(inclusion: string, fact: string): Promise<{ code: number; stderr: string }> {
      const dir = await mkdtemp(path.join(work, 'raw-'));
      const files = { inclusion: path.join(dir, 'inclusion.json'), keys: path.join(dir, 'keys.json'), fact: path.join(dir, 'fact.json') };
      await Promise.all([
        writeFile(files.inclusion, inclusion),
        writeFile(files.keys, JSON.stringify(keySet)),
        writeFile(files.fact, fact),
      ]);
      const script = path.resolve(__dirname, '../../scripts/verify-inclusion.mjs');
      try {
        await execFileP(process.execPath, [script, '--inclusion', files.inclusion, '--keys', files.keys, '--fact', files.fact]);
        return { code: 0, stderr: '' };
      } catch (err) {
        const e = err as { code: number; stderr: string };
        return { code: e.code, stderr: e.stderr };
      }
    }

    it("verifies a real inclusion answer with its fact (leaf from the fact's content), and fails on tampered output", async () => {
      const target = facts.get(big)![300];
      const inclusion = (await read().get(`/facts/${target.fact_id}/inclusion?tree_size=513`).expect(200)).body;
      const fact = (await read().get(`/facts/${target.fact_id}`).expect(200)).body;
      const ok = await runScript(inclusion, fact);
      expect(ok).toEqual({ code: 0, report: expect.objectContaining({ valid: true, leaf_checked_against: 'fact content', errors: [] }) });
      // Text JSON.parse would read as other values than it shows is unusable input (exit 2): a repeated member
      // name (a reader sees leaf_index 7, the proof is of the last one) and a number no double holds exactly.
      const repeated = await runRaw(`{"leaf_index":7,${JSON.stringify(inclusion).slice(1)}`, JSON.stringify(fact));
      expect(repeated.code).toBe(2);
      expect(repeated.stderr).toMatch(/the member name "leaf_index" is repeated in one object/);
      const inexact = await runRaw(
        JSON.stringify(inclusion).replace(/"leaf_index":300\b/, '"leaf_index":300.0000000000000000001'),
        JSON.stringify(fact),
      );
      expect(inexact.code).toBe(2);
      expect(inexact.stderr).toMatch(/the number 300.0000000000000000001 cannot be read exactly/);
      expect((await runRaw(JSON.stringify(inclusion), JSON.stringify(fact))).code).toBe(0);

      const flip = (s: string) => `${s.slice(0, -1)}${s.endsWith('0') ? '1' : '0'}`;
      const tampered = [
        { ...inclusion, inclusion_path: [flip(inclusion.inclusion_path[0]), ...inclusion.inclusion_path.slice(1)] },
        { ...inclusion, leaf_index: 301 },
        { ...inclusion, inclusion_path: inclusion.inclusion_path.slice(1) },
        { ...inclusion, tree_size: 514 },
        { ...inclusion, checkpoint: { ...inclusion.checkpoint, tree_size: 514 }, tree_size: 514 },
        { ...inclusion, checkpoint: { ...inclusion.checkpoint, root_hash: flip(inclusion.checkpoint.root_hash) } },
        { ...inclusion, checkpoint: { ...inclusion.checkpoint, created_at_ms: inclusion.checkpoint.created_at_ms + 1 } },
        { ...inclusion, checkpoint: { ...inclusion.checkpoint, key_id: 'ledger:1999' } },
      ];
      for (const bad of tampered) {
        const res = await runScript(bad, fact);
        expect(res.code).toBe(1);
        expect(res.report.valid).toBe(false);
      }
      // A fact whose content was changed no longer hashes to the leaf.
      expect((await runScript(inclusion, { ...fact, custom_payload: { i: 9999 } })).code).toBe(1);
      // Another fact of the stream is not the leaf either.
      const neighbour = (
        await read()
          .get(`/facts/${facts.get(big)![301].fact_id}`)
          .expect(200)
      ).body;
      expect((await runScript(inclusion, neighbour)).code).toBe(1);
    });

    it('takes the ledger keys from a trust file (--trust); one holding another key under the real kid fails the checkpoint', async () => {
      const target = facts.get(big)![300];
      const inclusion = (await read().get(`/facts/${target.fact_id}/inclusion?tree_size=513`).expect(200)).body;
      const fact = (await read().get(`/facts/${target.fact_id}`).expect(200)).body;
      const held = keySet as { keys: { x: string }[] };
      expect(await runScript(inclusion, fact, held)).toEqual({
        code: 0,
        report: expect.objectContaining({ valid: true, tenant_id: fact.tenant_id }),
      });
      // A trust file is one tenant's: the same ledger keys sign another tenant's streams, so its facts fail, and a
      // proof without the fact cannot say whose it is.
      expect(await runScript(inclusion, fact, held, 'tnt-somebodyelse')).toEqual({
        code: 1,
        report: expect.objectContaining({
          valid: false,
          errors: [`the fact is of tenant ${fact.tenant_id}, not of tnt-somebodyelse whose trust file was given`],
        }),
      });
      expect((await runScript(inclusion, undefined, held, fact.tenant_id)).report.errors).toEqual([
        `a trust file is one tenant's (${fact.tenant_id}): give the fact (--fact) so that its tenant can be checked`,
      ]);
      const impostor = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }).x as string;
      const swapped = await runScript(inclusion, fact, { keys: held.keys.map((k) => ({ ...k, x: impostor })) });
      expect(swapped).toEqual({
        code: 1,
        report: expect.objectContaining({ valid: false, errors: ['the checkpoint signature does not verify'] }),
      });
    });

    it("verifies from the fact_hash alone (an evidence answer's ledger object) and refuses what has no leaf", () => {
      const target = facts.get(small)![41];
      return read()
        .get(`/facts/${target.fact_id}/inclusion`)
        .expect(200)
        .then(({ body }) => {
          expect(scriptVerify({ inclusion: { ledger: { ...body, fact_hash: target.fact_hash } }, keys: keySet })).toMatchObject({
            valid: true,
            leaf_checked_against: 'fact_hash as given',
          });
          expect(scriptVerify({ inclusion: { ledger: { ...body, fact_hash: facts.get(small)![40].fact_hash } }, keys: keySet }).valid).toBe(
            false,
          );
          expect(scriptVerify({ inclusion: body, keys: keySet }).valid).toBe(false);
        });
    });
  });
});
