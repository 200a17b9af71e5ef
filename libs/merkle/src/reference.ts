// The definitions of RFC 9162 section 2.1 written as the RFC writes them (recursion over the
// leaf list), for small trees and as the oracle the tests hold the stored-subtree code against.
import { emptyRoot, hashChildren, type NodeHash } from './hash';
import { splitPoint } from './tree';

/** MTH(D[n]) over leaf hashes. */
export function treeRoot(leaves: readonly NodeHash[]): NodeHash {
  if (leaves.length === 0) return emptyRoot();
  if (leaves.length === 1) return leaves[0];
  const k = splitPoint(leaves.length);
  return hashChildren(treeRoot(leaves.slice(0, k)), treeRoot(leaves.slice(k)));
}

/** PATH(m, D[n]) (RFC 9162 2.1.3.1). */
export function inclusionPath(m: number, leaves: readonly NodeHash[]): NodeHash[] {
  const n = leaves.length;
  if (m < 0 || m >= n) throw new RangeError(`leaf ${m} is not in a tree of ${n} leaves`);
  if (n === 1) return [];
  const k = splitPoint(n);
  return m < k
    ? [...inclusionPath(m, leaves.slice(0, k)), treeRoot(leaves.slice(k))]
    : [...inclusionPath(m - k, leaves.slice(k)), treeRoot(leaves.slice(0, k))];
}

/** PROOF(m, D[n]) (RFC 9162 2.1.4.1), 1 ≤ m ≤ n. */
export function consistencyProof(m: number, leaves: readonly NodeHash[]): NodeHash[] {
  if (m < 1 || m > leaves.length) throw new RangeError(`no consistency proof from ${m} to ${leaves.length}`);
  return subproof(m, leaves, true);
}

function subproof(m: number, leaves: readonly NodeHash[], complete: boolean): NodeHash[] {
  const n = leaves.length;
  if (m === n) return complete ? [] : [treeRoot(leaves)];
  const k = splitPoint(n);
  return m <= k
    ? [...subproof(m, leaves.slice(0, k), complete), treeRoot(leaves.slice(k))]
    : [...subproof(m - k, leaves.slice(k), false), treeRoot(leaves.slice(0, k))];
}
