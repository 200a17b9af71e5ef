// Helpers of the evidence-chain end-to-end tests (docs/evidence.md): an auditor's own checks of what
// the ledger answers — RFC 9162 section 2.1.3.2 (inclusion) and 2.1.4.2 (consistency) and the
// checkpoint's Ed25519 signature — written here with node:crypto and the `canonicalize` package only,
// independent of @arbiter/merkle and the SDK.
import { createHash, createPublicKey, verify } from 'node:crypto';
import canonicalize from 'canonicalize';

const sha256 = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();
const bytesOf = (text: string): Buffer => {
  if (!/^sha256:[0-9a-f]{64}$/.test(text)) throw new Error(`not a sha256:<hex> hash: ${text}`);
  return Buffer.from(text.slice(7), 'hex');
};
const node = (left: Buffer, right: Buffer) => sha256(Buffer.from([1]), left, right);

/** The Merkle leaf of a fact: SHA-256(0x00 ‖ the 32 bytes of its fact_hash). */
export const leafOf = (factHash: string): Buffer => sha256(Buffer.from([0]), bytesOf(factHash));

/** RFC 9162 section 2.1.3.2: the root `path` leads to from the leaf at `index` of a `size`-leaf tree (`sha256:<hex>`), or null when it cannot be such a path. */
export function rootFromPath(factHash: string, index: number, size: number, path: string[]): string | null {
  if (index >= size) return null;
  let fn = index;
  let sn = size - 1;
  let r = leafOf(factHash);
  for (const p of path.map(bytesOf)) {
    if (sn === 0) return null;
    if (fn % 2 === 1 || fn === sn) {
      r = node(p, r);
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
      }
    } else {
      r = node(r, p);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 ? `sha256:${r.toString('hex')}` : null;
}

/** RFC 9162 section 2.1.3.2: does `path` lead from the leaf at `index` of a `size`-leaf tree to `root`? */
export function inclusionHolds(factHash: string, index: number, size: number, path: string[], root: string): boolean {
  return rootFromPath(factHash, index, size, path) === root;
}

/** RFC 9162 section 2.1.1: MTH over a stream's fact hashes (`sha256:<hex>`), as its recursive definition writes it. */
export function treeRootOf(factHashes: string[]): string {
  const mth = (leaves: Buffer[]): Buffer => {
    if (leaves.length === 1) return leaves[0];
    let k = 1;
    while (k * 2 < leaves.length) k *= 2;
    return node(mth(leaves.slice(0, k)), mth(leaves.slice(k)));
  };
  return `sha256:${mth(factHashes.map(leafOf)).toString('hex')}`;
}

/** RFC 9162 section 2.1.4.2: does `path` prove the tree of `first` leaves (firstRoot) a prefix of the tree of `second` (secondRoot)? */
export function consistencyHolds(first: number, second: number, path: string[], firstRoot: string, secondRoot: string): boolean {
  if (first < 1 || first > second) return false;
  if (first === second) return path.length === 0 && firstRoot === secondRoot;
  const c = path.map(bytesOf);
  if ((first & (first - 1)) === 0) c.unshift(bytesOf(firstRoot));
  if (c.length === 0) return false;
  let fn = first - 1;
  let sn = second - 1;
  while (fn % 2 === 1) {
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  let fr = c[0];
  let sr = c[0];
  for (const p of c.slice(1)) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      fr = node(p, fr);
      sr = node(p, sr);
      while (fn % 2 === 0 && fn !== 0) {
        fn = Math.floor(fn / 2);
        sn = Math.floor(sn / 2);
      }
    } else {
      sr = node(sr, p);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && fr.equals(bytesOf(firstRoot)) && sr.equals(bytesOf(secondRoot));
}

export interface PublishedLedgerKey {
  kid: string;
  kty: string;
  crv: string;
  x: string;
}

/** The checkpoint's Ed25519 signature over the RFC 8785 form of the checkpoint without `signature`, with the published key of its key_id. */
export function checkpointSignatureHolds(
  checkpoint: Record<string, unknown> & { key_id: string; signature: string },
  keys: PublishedLedgerKey[],
): boolean {
  const key = keys.find((k) => k.kid === checkpoint.key_id);
  if (!key || key.kty !== 'OKP' || key.crv !== 'Ed25519') return false;
  const { signature, ...signed } = checkpoint;
  const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: key.x }, format: 'jwk' });
  return verify(null, Buffer.from(canonicalize(signed)!, 'utf8'), publicKey, Buffer.from(signature, 'base64'));
}

/** "sha256:" + hex of SHA-256 over the RFC 8785 form of `value` (the `canonicalize` package). */
export const canonicalHash = (value: unknown) => `sha256:${createHash('sha256').update(canonicalize(value)!, 'utf8').digest('hex')}`;
