// Proof verification as RFC 9162 2.1.3.2 and 2.1.4.2 describe it, step by step. Tree sizes and
// indices are JavaScript numbers (safe integers), halved by division: no 32-bit bit operations.
import { hashChildren, sameHash, type NodeHash } from './hash';

const odd = (x: number) => x % 2 === 1;
const half = (x: number) => Math.floor(x / 2);

/** The root an inclusion proof leads to, or null when the proof cannot be one for (leafIndex, treeSize). */
export function rootFromInclusion(leafIndex: number, treeSize: number, leaf: NodeHash, path: readonly NodeHash[]): NodeHash | null {
  if (!Number.isSafeInteger(leafIndex) || !Number.isSafeInteger(treeSize) || leafIndex < 0 || leafIndex >= treeSize) return null;
  let fn = leafIndex;
  let sn = treeSize - 1;
  let r = leaf;
  for (const p of path) {
    if (sn === 0) return null;
    if (odd(fn) || fn === sn) {
      r = hashChildren(p, r);
      if (!odd(fn)) {
        while (!odd(fn) && fn !== 0) {
          fn = half(fn);
          sn = half(sn);
        }
      }
    } else {
      r = hashChildren(r, p);
    }
    fn = half(fn);
    sn = half(sn);
  }
  return sn === 0 ? r : null;
}

/** RFC 9162 2.1.3.2: whether `path` proves `leaf` at leafIndex in the tree of treeSize leaves with root `root`. */
export function verifyInclusion(leafIndex: number, treeSize: number, leaf: NodeHash, path: readonly NodeHash[], root: NodeHash): boolean {
  const r = rootFromInclusion(leafIndex, treeSize, leaf, path);
  return r !== null && sameHash(r, root);
}

/**
 * RFC 9162 2.1.4.2: whether `path` proves that the tree of `first` leaves with root firstRoot is a
 * prefix of the tree of `second` leaves with root secondRoot (1 ≤ first ≤ second).
 */
export function verifyConsistency(
  first: number,
  second: number,
  firstRoot: NodeHash,
  secondRoot: NodeHash,
  path: readonly NodeHash[],
): boolean {
  if (!Number.isSafeInteger(first) || !Number.isSafeInteger(second) || first < 1 || first > second) return false;
  if (first === second) return path.length === 0 && sameHash(firstRoot, secondRoot);
  if (path.length === 0) return false;
  // A first tree of 2^k leaves is itself a subtree of the second: its root starts the proof.
  const proof = isPowerOfTwo(first) ? [firstRoot, ...path] : [...path];
  let fn = first - 1;
  let sn = second - 1;
  while (odd(fn)) {
    fn = half(fn);
    sn = half(sn);
  }
  let fr = proof[0];
  let sr = proof[0];
  for (const c of proof.slice(1)) {
    if (sn === 0) return false;
    if (odd(fn) || fn === sn) {
      fr = hashChildren(c, fr);
      sr = hashChildren(c, sr);
      if (!odd(fn)) {
        while (!odd(fn) && fn !== 0) {
          fn = half(fn);
          sn = half(sn);
        }
      }
    } else {
      sr = hashChildren(sr, c);
    }
    fn = half(fn);
    sn = half(sn);
  }
  return sn === 0 && sameHash(fr, firstRoot) && sameHash(sr, secondRoot);
}

function isPowerOfTwo(x: number): boolean {
  while (x > 1 && x % 2 === 0) x /= 2;
  return x === 1;
}
