export { CryptoError, type CryptoErrorCode } from './errors';
export { base64ToBytes, base64UrlToBytes, bytesToBase64, bytesToBase64Url, bytesToHex, hexToBytes, toBytes } from './encoding';
export {
  createEs256Signer,
  generateEs256KeyPair,
  verifyEs256Jws,
  type Es256KeyPair,
  type Es256Signer,
  type JWK,
  type VerifiedJws,
} from './es256';
export {
  ED25519_KEY_LENGTH,
  ED25519_SIGNATURE_LENGTH,
  ed25519FromBase64,
  ed25519PublicKeyFromPrivateKey,
  ed25519PublicKeyToJwk,
  ed25519PublicKeyToPem,
  ed25519Sign,
  ed25519ToBase64,
  ed25519Verify,
  generateEd25519KeyPair,
  type Ed25519KeyPair,
} from './ed25519';
export {
  P256_PRIVATE_KEY_LENGTH,
  generateP256KeyPair,
  p256PublicKeyFromJwk,
  p256PublicKeyFromPrivateKey,
  p256PublicKeyToJwk,
  p256PublicKeyToPem,
  p256SignHex,
  p256VerifyHex,
  type P256KeyPair,
  type P256PublicJwk,
} from './p256';
export { decryptSecret, decryptSecretRotating, encryptSecret, generateKeyEncryptionKey, parseKeyEncryptionKey } from './encryption';
export {
  currentKey,
  isKeyValidAt,
  isPublished,
  isScheduledRotationDue,
  kidFor,
  nextEmergencyEpoch,
  parseKid,
  planRotation,
  scheduledEpoch,
  signingKeyAt,
  toPublicJwk,
  type KeyRecord,
  type PublishedJwk,
  type RotationMode,
  type RotationPlan,
} from './key-ring';
