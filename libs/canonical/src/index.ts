export { canonicalJson, verbatim, withLeadingMembers, type CanonicalText, type JsonValue, type KnownTexts } from './canonical-json';
export { isCanonicalText } from './canonical-text';
export { sha256Hex, sha256Digest, isDigest, ZERO_DIGEST, type Digest } from './digest';
export { CanonicalizationError, type CanonicalErrorCode } from './errors';
