import { hash } from 'node:crypto';

/** A node or leaf hash of the tree: 32 raw bytes. */
export type NodeHash = Uint8Array;

const DIGEST = /^sha256:([0-9a-f]{64})$/;

/** RFC 9162 section 2.1.1: the hash of a leaf is SHA-256(0x00 || leaf data). */
export function hashLeaf(data: Uint8Array): NodeHash {
  const input = new Uint8Array(data.length + 1);
  input.set(data, 1);
  return hash('sha256', input, 'buffer');
}

/** RFC 9162 section 2.1.1: an interior node is SHA-256(0x01 || left || right). */
export function hashChildren(left: NodeHash, right: NodeHash): NodeHash {
  const input = new Uint8Array(65);
  input[0] = 1;
  input.set(left, 1);
  input.set(right, 33);
  return hash('sha256', input, 'buffer');
}

/** The hash of an empty tree: SHA-256 of nothing. */
export function emptyRoot(): NodeHash {
  return hash('sha256', new Uint8Array(0), 'buffer');
}

/**
 * A ledger fact's leaf (docs/evidence.md "The tree"): the leaf data is the 32 raw bytes of its
 * `fact_hash`, so the leaf hash is SHA-256(0x00 || those bytes).
 */
export function factLeaf(factHash: string): NodeHash {
  return hashLeaf(digestBytes(factHash));
}

/** `sha256:<64 lowercase hex>` → its 32 bytes; throws on any other text. */
export function digestBytes(digest: string): Uint8Array {
  const m = DIGEST.exec(digest);
  if (!m) throw new TypeError(`not a sha256:<64 lowercase hex> digest: ${JSON.stringify(digest)}`);
  return Buffer.from(m[1], 'hex');
}

/** Whether `s` is a well-formed `sha256:<64 lowercase hex>` digest. */
export function isDigestText(s: unknown): s is string {
  return typeof s === 'string' && DIGEST.test(s);
}

/** 32 bytes → `sha256:<hex>`. */
export function toDigest(node: NodeHash): string {
  return `sha256:${Buffer.from(node.buffer, node.byteOffset, node.byteLength).toString('hex')}`;
}

export function sameHash(a: NodeHash, b: NodeHash): boolean {
  return a.length === b.length && Buffer.compare(a, b) === 0;
}
