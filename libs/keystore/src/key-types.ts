import {
  createEs256Signer,
  ed25519PublicKeyToJwk,
  ed25519Sign,
  generateEd25519KeyPair,
  generateEs256KeyPair,
  generateP256KeyPair,
  p256PublicKeyToJwk,
  p256SignHex,
  type JWK,
} from '@arbiter/crypto';

/**
 * What a ring's keys are: the algorithm column, how a key pair is made, and how the decrypted private
 * half becomes a signing function. The private half's stored form is part of the type, because rows
 * written by earlier releases must keep opening.
 */
export interface KeyType<Sign> {
  /** The value of the algorithm column; a row with another value is refused. */
  readonly algorithm: string;
  generate(): { publicJwk: JWK; privateKey: Uint8Array | string };
  /** The signing function of a decrypted private half (made once per key and process). */
  open(privateKey: Buffer, kid: string): Sign;
}

/** Ed25519 (RFC 8032) over a string or bytes; the private half stored as its 32 raw bytes. The ledger's bundles. */
export const ed25519Keys: KeyType<(message: string | Uint8Array) => Uint8Array> = {
  algorithm: 'Ed25519',
  generate() {
    const pair = generateEd25519KeyPair();
    return { publicJwk: ed25519PublicKeyToJwk(pair.publicKey), privateKey: pair.privateKey };
  },
  open(privateKey) {
    const key = new Uint8Array(privateKey);
    return (message) => ed25519Sign(message, key);
  },
};

/** ECDSA P-256 / SHA-256 answering hex r||s; the private half stored as its 32 raw bytes. The registry's webhooks. */
export const p256HexKeys: KeyType<(message: string | Uint8Array) => string> = {
  algorithm: 'ES256',
  generate() {
    const pair = generateP256KeyPair();
    return { publicJwk: p256PublicKeyToJwk(pair.publicKey), privateKey: pair.privateKey };
  },
  open(privateKey) {
    const key = new Uint8Array(privateKey);
    return (message) => p256SignHex(message, key);
  },
};

/** ES256 compact JWS (RFC 7515, header alg/kid/typ); the private half stored as its JWK's JSON. Verdicts. */
export const es256JwsKeys: KeyType<(claims: object) => string> = {
  algorithm: 'ES256',
  generate() {
    const { privateJwk, publicJwk } = generateEs256KeyPair();
    return { publicJwk, privateKey: JSON.stringify(privateJwk) };
  },
  open(privateKey, kid) {
    const signer = createEs256Signer(JSON.parse(privateKey.toString('utf8')) as JWK, kid);
    return (claims) => signer.sign(claims);
  },
};
