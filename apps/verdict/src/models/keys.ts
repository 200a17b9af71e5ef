/** docs/verdicts.md "Verification key": one entry of a tenant's key set. */
export interface VerificationKey {
  /** `<tenant_id>:<epoch>`, the JWS header kid */
  kid: string;
  kty: string;
  crv: string;
  /** base64url */
  x: string;
  /** base64url */
  y?: string;
  alg: string;
  use: string;
  /** ISO 8601 */
  not_before: string;
  /** ISO 8601, or null for the current key */
  not_after: string | null;
}

export interface KeySet {
  keys: VerificationKey[];
}

export interface SigningKeySetup {
  tenant_id: string;
  /** The key new verdicts are signed with. */
  current_kid: string;
  /** true when this call created it. */
  created: boolean;
  keys: VerificationKey[];
}

export interface RotateSigningKeyBody {
  /**
   * `scheduled`: this year's key (409 rotation_not_due when it exists); `emergency`: a new
   * `<year>.<n>` key at once. Either way the previous key gets not_after = now and stays published.
   */
  mode: 'scheduled' | 'emergency';
}

export interface SigningKeyRotation {
  mode: 'scheduled' | 'emergency';
  kid: string;
  epoch: string;
  not_before: string;
  /** kids closed by the rotation (still published for verification). */
  retired: string[];
}
