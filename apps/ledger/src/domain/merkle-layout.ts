import type { LeafRange, Subtree } from '@arbiter/merkle';

// Where each subtree hash of a stream's tree comes from (docs/adr/0009-merkle-storage.md). Leaves
// (level 0) are the facts themselves; merkle_nodes stores the perfect subtrees of the levels that
// are multiples of BAND (4, 8, 12, ...). Any perfect subtree is folded from at most 2^BAND hashes
// of one source level: the stored level (or the leaves) at or below it.

/**
 * Levels between two stored levels: 2^4 = 16 rows at most per folded subtree. Measured against 8
 * (256 rows) on a 1,000,000-fact stream: inclusion p99 10.7 ms instead of 21.2 ms, for 1/15 of a
 * row per fact instead of 1/255 (docs/benchmarks.md "Merkle proofs").
 */
export const BAND = 4;
/** Children of a stored node at the level below it. */
export const FAN = 2 ** BAND;

/** The level a subtree of this level is folded from: the stored level at or below it (0: the leaves). */
export function sourceLevel(level: number): number {
  return level - (level % BAND);
}

/** Whether merkle_nodes holds subtrees of this level. */
export function isStoredLevel(level: number): boolean {
  return level >= BAND && level % BAND === 0;
}

/** The indices, at its source level, of the hashes a subtree is folded from (one index when it is stored itself). */
export function sourceRange(subtree: Subtree): LeafRange {
  const width = 2 ** (subtree.level - sourceLevel(subtree.level));
  return { start: subtree.index * width, end: (subtree.index + 1) * width };
}

/**
 * The stored nodes of `level` that become complete when a stream grows from `from` to `to` facts:
 * node i is complete once the tree has (i + 1)·2^level leaves.
 */
export function completedNodes(level: number, from: number, to: number): LeafRange {
  const width = 2 ** level;
  return { start: Math.floor(from / width), end: Math.floor(to / width) };
}

/** Sorted, disjoint ranges covering the same indices (adjacent and overlapping ones merged). */
export function mergeRanges(ranges: readonly LeafRange[]): LeafRange[] {
  const sorted = ranges.filter((r) => r.end > r.start).sort((a, b) => a.start - b.start);
  const out: LeafRange[] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last && r.start <= last.end) last.end = Math.max(last.end, r.end);
    else out.push({ ...r });
  }
  return out;
}
