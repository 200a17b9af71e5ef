import { createHash } from 'node:crypto';
import {
  consistencyProof,
  consistencyRanges,
  factLeaf,
  foldPerfect,
  hashLeaf,
  inclusionPath,
  inclusionRanges,
  perfectSubtrees,
  rangeHash,
  rootFromInclusion,
  RootBuilder,
  toDigest,
  treeRoot,
  verifyConsistency,
  verifyInclusion,
  type NodeHash,
  type Subtree,
} from './index';

const sha256 = (...parts: Uint8Array[]) => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return new Uint8Array(h.digest());
};
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** Leaves of the test trees: fact hashes sha256("fact-<i>") as the ledger would store them. */
const factHashes = Array.from({ length: 65 }, (_, i) => `sha256:${createHash('sha256').update(`fact-${i}`).digest('hex')}`);
const leaves = factHashes.map(factLeaf);

/** Node of a perfect subtree straight from the leaves (what the ledger's storage answers). */
const nodeFrom = (ls: readonly NodeHash[]) => (s: Subtree) => foldPerfect(ls.slice(s.index * 2 ** s.level, (s.index + 1) * 2 ** s.level));

/** Copies of `proof` with one thing wrong each: every element's bytes, the length, the order. */
function tampered(proof: NodeHash[]): NodeHash[][] {
  const out: NodeHash[][] = [];
  proof.forEach((p, i) => {
    const bad = new Uint8Array(p);
    bad[i % 32] ^= 1;
    out.push(proof.map((q, j) => (j === i ? bad : q)));
  });
  if (proof.length) out.push(proof.slice(0, -1), proof.slice(1));
  out.push([...proof, leaves[0]]);
  if (proof.length > 1) out.push([...proof].reverse());
  return out;
}

describe('hashing (RFC 9162 2.1.1)', () => {
  it('hashes a leaf as SHA-256(0x00 || data) and a node as SHA-256(0x01 || left || right), independently recomputed', () => {
    const raw = Buffer.from(factHashes[0].slice(7), 'hex');
    expect(hex(factLeaf(factHashes[0]))).toBe(hex(sha256(Uint8Array.of(0), raw)));
    expect(hex(treeRoot(leaves.slice(0, 2)))).toBe(hex(sha256(Uint8Array.of(1), leaves[0], leaves[1])));
    expect(hex(treeRoot([]))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(toDigest(leaves[0])).toBe(`sha256:${hex(leaves[0])}`);
  });

  it('matches the roots of the certificate-transparency test tree (leaf data "", 00, 10, 2021, …)', () => {
    const data = ['', '00', '10', '2021', '3031', '40414243', '5051525354555657', '606162636465666768696a6b6c6d6e6f'].map((h) =>
      Buffer.from(h, 'hex'),
    );
    const roots = [
      '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
      'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
      'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
      '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
      '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
      'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
      '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
    ];
    const ls = data.map(hashLeaf);
    roots.forEach((root, i) => expect(hex(treeRoot(ls.slice(0, i + 1)))).toBe(root));
  });

  it('refuses a fact hash that is not sha256:<64 lowercase hex>', () => {
    for (const bad of ['', 'sha256:', `sha256:${'A'.repeat(64)}`, `sha1:${'0'.repeat(64)}`, `sha256:${'0'.repeat(63)}`])
      expect(() => factLeaf(bad)).toThrow(TypeError);
  });
});

describe(RootBuilder.name, () => {
  it('gives the root of RFC 9162 at every size 0..65, leaves read once', () => {
    const builder = new RootBuilder();
    expect(toDigest(builder.root())).toBe(toDigest(treeRoot([])));
    for (let n = 1; n <= leaves.length; n++) {
      builder.add(leaves[n - 1]);
      expect({ n, root: toDigest(builder.root()) }).toEqual({ n, root: toDigest(treeRoot(leaves.slice(0, n))) });
    }
    expect(builder.size).toBe(leaves.length);
  });
});

describe('inclusion proofs, every tree size 1..64 and every index', () => {
  it('the stored-subtree plan gives the RFC path, and the path verifies to the RFC root', () => {
    for (let n = 1; n <= 64; n++) {
      const tree = leaves.slice(0, n);
      const root = treeRoot(tree);
      const node = nodeFrom(tree);
      expect(hex(rangeHash({ start: 0, end: n }, node))).toBe(hex(root));
      for (let m = 0; m < n; m++) {
        const path = inclusionPath(m, tree);
        expect(inclusionRanges(m, n).map((r) => hex(rangeHash(r, node)))).toEqual(path.map(hex));
        expect(verifyInclusion(m, n, tree[m], path, root)).toBe(true);
      }
    }
  });

  it('refuses tampered proofs, the wrong leaf, index, size or root', () => {
    for (let n = 1; n <= 64; n++) {
      const tree = leaves.slice(0, n);
      const root = treeRoot(tree);
      for (let m = 0; m < n; m++) {
        const path = inclusionPath(m, tree);
        for (const bad of tampered(path)) expect(verifyInclusion(m, n, tree[m], bad, root)).toBe(false);
        expect(verifyInclusion(m, n, leaves[(m + 1) % n === m ? 64 : (m + 1) % n], path, root)).toBe(false);
        if (n > 1) expect(verifyInclusion((m + 1) % n, n, tree[m], path, root)).toBe(false);
        // (A size alone can share a path's shape, e.g. leaf 0 of 3 and of 4: a checkpoint signs size and root together.)
        expect(verifyInclusion(m, n + 1, tree[m], path, treeRoot(leaves.slice(0, n + 1)))).toBe(false);
        expect(verifyInclusion(m, n, tree[m], path, leaves[63])).toBe(false);
      }
      expect(rootFromInclusion(n, n, tree[0], [])).toBeNull();
      expect(rootFromInclusion(-1, n, tree[0], [])).toBeNull();
    }
  });
});

describe('consistency proofs, every pair 1 ≤ m ≤ n ≤ 64', () => {
  it('the stored-subtree plan gives the RFC proof, and it verifies between the two RFC roots', () => {
    for (let n = 1; n <= 64; n++) {
      const tree = leaves.slice(0, n);
      const node = nodeFrom(tree);
      const second = treeRoot(tree);
      for (let m = 1; m <= n; m++) {
        const proof = consistencyProof(m, tree);
        expect(consistencyRanges(m, n).map((r) => hex(rangeHash(r, node)))).toEqual(proof.map(hex));
        expect(verifyConsistency(m, n, treeRoot(tree.slice(0, m)), second, proof)).toBe(true);
      }
    }
  });

  it('refuses tampered proofs, swapped sizes and a first tree that is not a prefix', () => {
    const forked = [...leaves.slice(0, 64)];
    forked[0] = leaves[63];
    for (let n = 2; n <= 64; n++) {
      const tree = leaves.slice(0, n);
      const second = treeRoot(tree);
      for (let m = 1; m < n; m++) {
        const first = treeRoot(tree.slice(0, m));
        const proof = consistencyProof(m, tree);
        for (const bad of tampered(proof)) expect(verifyConsistency(m, n, first, second, bad)).toBe(false);
        expect(verifyConsistency(m, n, treeRoot(forked.slice(0, m)), second, proof)).toBe(false);
        expect(verifyConsistency(m, n, first, treeRoot(forked.slice(0, n)), proof)).toBe(false);
        expect(verifyConsistency(n, m, second, first, proof)).toBe(false);
        if (m + 1 < n) expect(verifyConsistency(m + 1, n, first, second, proof)).toBe(false);
      }
      expect(verifyConsistency(n, n, second, second, [])).toBe(true);
      expect(verifyConsistency(n, n, second, second, [second])).toBe(false);
    }
  });
});

describe('perfect subtrees of a range', () => {
  it('decomposes a range into aligned power-of-two subtrees, largest first', () => {
    expect(perfectSubtrees({ start: 0, end: 7 })).toEqual([
      { level: 2, index: 0 },
      { level: 1, index: 2 },
      { level: 0, index: 6 },
    ]);
    expect(perfectSubtrees({ start: 256, end: 300 })).toEqual([
      { level: 5, index: 8 },
      { level: 3, index: 36 },
      { level: 2, index: 74 },
    ]);
    expect(() => perfectSubtrees({ start: 3, end: 7 })).toThrow(RangeError);
    expect(() => perfectSubtrees({ start: 4, end: 4 })).toThrow(RangeError);
  });

  it('plans proofs for a tree of tens of millions of leaves in O(log n) subtrees', () => {
    const n = 50_000_017;
    const parts = inclusionRanges(12_345_678, n).flatMap(perfectSubtrees);
    expect(parts.length).toBeLessThanOrEqual(2 * Math.ceil(Math.log2(n)));
    expect(consistencyRanges(33_554_433, n).flatMap(perfectSubtrees).length).toBeLessThanOrEqual(2 * Math.ceil(Math.log2(n)));
  });
});
