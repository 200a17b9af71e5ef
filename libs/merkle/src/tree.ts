import { emptyRoot, hashChildren, type NodeHash } from './hash';

/** The leaves [start, end) of a tree, by index. */
export interface LeafRange {
  start: number;
  end: number;
}

/** A perfect subtree: the 2^level leaves from index·2^level on. Level 0 is a single leaf. */
export interface Subtree {
  level: number;
  index: number;
}

/** The largest power of two smaller than n (n ≥ 2): the size of the left subtree of an n-leaf tree. */
export function splitPoint(n: number): number {
  if (!Number.isSafeInteger(n) || n < 2) throw new RangeError(`a tree to split has at least 2 leaves, not ${n}`);
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/**
 * The subtree ranges whose hashes form the inclusion path of leaf m in the tree of the first n
 * leaves, in path order (leaf side first), following RFC 9162 2.1.3.1's PATH(m, D[n]) recursion.
 */
export function inclusionRanges(m: number, n: number): LeafRange[] {
  checkIndex(m, n);
  const out: LeafRange[] = [];
  const walk = (m: number, start: number, end: number): void => {
    if (end - start === 1) return;
    const k = splitPoint(end - start);
    if (m < k) {
      walk(m, start, start + k);
      out.push({ start: start + k, end });
    } else {
      walk(m - k, start + k, end);
      out.push({ start, end: start + k });
    }
  };
  walk(m, 0, n);
  return out;
}

/**
 * The subtree ranges whose hashes form the consistency proof between the trees of the first m and
 * the first n leaves (1 ≤ m ≤ n), following RFC 9162 2.1.4.1's PROOF(m, D[n]) = SUBPROOF(m, D[n], true).
 */
export function consistencyRanges(m: number, n: number): LeafRange[] {
  if (!Number.isSafeInteger(m) || !Number.isSafeInteger(n) || m < 1 || m > n)
    throw new RangeError(`no consistency proof from ${m} to ${n}`);
  const out: LeafRange[] = [];
  const sub = (m: number, start: number, end: number, complete: boolean): void => {
    const n = end - start;
    if (m === n) {
      if (!complete) out.push({ start, end });
      return;
    }
    const k = splitPoint(n);
    if (m <= k) {
      sub(m, start, start + k, complete);
      out.push({ start: start + k, end });
    } else {
      sub(m - k, start + k, end, false);
      out.push({ start, end: start + k });
    }
  };
  sub(m, 0, n, true);
  return out;
}

/**
 * The perfect subtrees whose hashes make up MTH(D[start:end]) for a range the RFC's recursion
 * produces (its start is a multiple of the largest power of two not above its size), largest
 * first: the binary digits of the size. {@link rangeHash} folds them from the right.
 */
export function perfectSubtrees(range: LeafRange): Subtree[] {
  const out: Subtree[] = [];
  let start = range.start;
  let size = range.end - range.start;
  if (!Number.isSafeInteger(start) || start < 0 || size < 1) throw new RangeError(`empty or invalid range [${range.start}, ${range.end})`);
  while (size > 0) {
    let level = 0;
    while (2 ** (level + 1) <= size) level++;
    const width = 2 ** level;
    if (start % width !== 0) throw new RangeError(`range [${range.start}, ${range.end}) is not one the tree's recursion produces`);
    out.push({ level, index: start / width });
    start += width;
    size -= width;
  }
  return out;
}

/** MTH(D[start:end]) from the hashes of its perfect subtrees (`node` answers each one). */
export function rangeHash(range: LeafRange, node: (subtree: Subtree) => NodeHash): NodeHash {
  const parts = perfectSubtrees(range);
  let h = node(parts[parts.length - 1]);
  for (let i = parts.length - 2; i >= 0; i--) h = hashChildren(node(parts[i]), h);
  return h;
}

/** The root of a perfect subtree from its 2^level leaf hashes (or lower-level nodes), in order. */
export function foldPerfect(hashes: readonly NodeHash[]): NodeHash {
  if (hashes.length === 0 || (hashes.length & (hashes.length - 1)) !== 0)
    throw new RangeError(`a perfect subtree has 2^k hashes, not ${hashes.length}`);
  let level = [...hashes];
  while (level.length > 1) {
    const up: NodeHash[] = [];
    for (let i = 0; i < level.length; i += 2) up.push(hashChildren(level[i], level[i + 1]));
    level = up;
  }
  return level[0];
}

function checkIndex(m: number, n: number): void {
  if (!Number.isSafeInteger(m) || !Number.isSafeInteger(n) || m < 0 || m >= n)
    throw new RangeError(`leaf ${m} is not in a tree of ${n} leaves`);
}

/**
 * MTH(D[n]) of leaves read once, in order (RFC 9162 2.1.1), in O(log n) memory: the perfect subtrees so far, largest
 * first (the binary digits of the size), merged as leaves arrive and folded from the right by {@link root}.
 */
export class RootBuilder {
  private readonly subtrees: { leaves: number; hash: NodeHash }[] = [];
  /** Leaves added so far. */
  size = 0;

  add(leaf: NodeHash): void {
    let node = { leaves: 1, hash: leaf };
    while (this.subtrees.length > 0 && this.subtrees[this.subtrees.length - 1].leaves === node.leaves) {
      const left = this.subtrees.pop()!;
      node = { leaves: left.leaves * 2, hash: hashChildren(left.hash, node.hash) };
    }
    this.subtrees.push(node);
    this.size++;
  }

  /** The root of the leaves added so far (the empty tree's for none). */
  root(): NodeHash {
    if (this.subtrees.length === 0) return emptyRoot();
    let h = this.subtrees[this.subtrees.length - 1].hash;
    for (let i = this.subtrees.length - 2; i >= 0; i--) h = hashChildren(this.subtrees[i].hash, h);
    return h;
  }
}
