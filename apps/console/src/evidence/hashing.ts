// SHA-256 over WebCrypto: the digests of the record (RFC 8785, docs/verdicts.md "Hashes and the signed
// verdict"), of ledger facts (docs/ledger-formats.md "fact_hash") and the RFC 9162 tree (docs/evidence.md "The tree").
import { canonicalJson } from '@arbiter/canonical/json';
import { digestBytes, sameBytes, toDigest, utf8, type Bytes } from './bytes';

export async function sha256(data: Bytes): Promise<Bytes> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', data));
}

/** `sha256:<hex>` of the RFC 8785 form of a JSON value (throws when it has none). */
export async function jsonDigest(value: unknown): Promise<string> {
  return toDigest(await sha256(utf8(canonicalJson(value as never))));
}

/** RFC 9162 2.1.1: a ledger fact's leaf is SHA-256(0x00 || the 32 bytes of its fact_hash). */
export async function factLeaf(factHash: string): Promise<Bytes> {
  const input = new Uint8Array(33);
  input.set(digestBytes(factHash), 1);
  return sha256(input);
}

/** RFC 9162 2.1.1: an interior node is SHA-256(0x01 || left || right). */
export async function hashChildren(left: Bytes, right: Bytes): Promise<Bytes> {
  const input = new Uint8Array(65);
  input[0] = 1;
  input.set(left, 1);
  input.set(right, 33);
  return sha256(input);
}

const odd = (x: number) => x % 2 === 1;
const half = (x: number) => Math.floor(x / 2);

/** RFC 9162 2.1.3.2, step by step: whether `path` proves `leaf` at leafIndex in the tree of treeSize leaves whose root is `root`. */
export async function verifyInclusion(
  leafIndex: number,
  treeSize: number,
  leaf: Bytes,
  path: readonly Bytes[],
  root: Bytes,
): Promise<boolean> {
  if (!Number.isSafeInteger(leafIndex) || !Number.isSafeInteger(treeSize) || leafIndex < 0 || leafIndex >= treeSize) return false;
  let fn = leafIndex;
  let sn = treeSize - 1;
  let r = leaf;
  for (const p of path) {
    if (sn === 0) return false;
    if (odd(fn) || fn === sn) {
      r = await hashChildren(p, r);
      while (!odd(fn) && fn !== 0) {
        fn = half(fn);
        sn = half(sn);
      }
    } else {
      r = await hashChildren(r, p);
    }
    fn = half(fn);
    sn = half(sn);
  }
  return sn === 0 && sameBytes(r, root);
}
