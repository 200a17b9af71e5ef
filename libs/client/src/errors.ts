// Errors of the SDK. Every failure is a class with a stable `code`, in the style of jose's JOSEError:
// callers branch on `err.code` (or `instanceof`), never on message text.

export type ServiceName = 'verdict' | 'ledger' | 'registry';

/**
 * Error codes the verdict service answers (docs/verdicts.md "Errors"). The union is open
 * (`string & {}`): a newer service may add codes, and they still arrive typed as strings.
 */
export type VerdictErrorCode =
  | 'invalid_scope_field'
  | 'invalid_scope_value'
  | 'unknown_scope_field'
  | 'invalid_context_shape'
  | 'invalid_verdict_ttl'
  | 'invalid_query'
  | 'invalid_cursor'
  | 'validation_failed'
  | 'malformed_json'
  | 'consultation_not_approval_required'
  | 'missing_credentials'
  | 'invalid_credentials'
  | 'principal_deactivated'
  | 'insufficient_permission'
  | 'cross_tenant_forbidden'
  | 'not_a_valid_decider'
  | 'not_found'
  | 'consultation_not_found'
  /** The consultation is not sealed in the ledger yet (sealing is asynchronous): its evidence comes later. */
  | 'evidence_pending'
  | 'rule_version_not_found'
  | 'tenant_not_found'
  | 'approval_not_found'
  | 'unknown_action_type'
  | 'resolve_session_not_found'
  | 'resolve_session_completed'
  | 'resolve_session_mismatch'
  | 'resolve_session_conflict'
  | 'scope_conflict'
  | 'rotation_not_due'
  | 'already_decided'
  | 'insufficient_context'
  | 'too_many_rounds'
  | 'signing_key_unavailable'
  | 'no_keys_configured'
  | 'internal_error'
  | 'auth_unavailable'
  | 'registry_unavailable'
  | 'policy_unavailable'
  | 'evaluation_budget_exceeded'
  /** The other value of `executed` was reported for this consultation before (docs/verdicts.md "Worked examples: budgets and sequences"). */
  | 'outcome_already_reported'
  | (string & {});

/** The ledger's error codes (docs/ledger-formats.md "Errors"). */
export type LedgerErrorCode =
  | 'VALIDATION_ERROR'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'RATE_LIMITED'
  | 'INTERNAL_ERROR'
  | 'SERVICE_UNAVAILABLE'
  | (string & {});

/**
 * The registry answers `{detail}` only (docs/registry.md "Errors"), so the SDK derives a code from the status (and recognises the
 * one condition the verdict gateway and the registry name alike, `not_a_valid_decider`).
 */
export type RegistryErrorCode =
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_a_valid_decider'
  | 'not_found'
  | 'conflict'
  | 'unprocessable'
  | 'rate_limited'
  | 'unavailable'
  | 'internal_error'
  | (string & {});

/** Codes of failures that happen before a service answered (no HTTP status). */
export type TransportErrorCode = 'network_error' | 'invalid_response';

interface ArbiterErrorInit {
  service: ServiceName;
  status: number;
  code: string;
  message: string;
  details?: unknown;
  requestId?: string;
  cause?: unknown;
}

/** A service answered with an error status (or could not be reached: status 0). */
export class ArbiterError extends Error {
  override readonly name: string = 'ArbiterError';
  readonly service: ServiceName;
  /** HTTP status; 0 when no answer arrived (`network_error`). */
  readonly status: number;
  readonly code: string;
  /** The error body's `details` (verdict, ledger) when present. */
  readonly details?: unknown;
  /** The X-Request-Id of the failed request, for the service's logs. */
  readonly requestId?: string;

  constructor(init: ArbiterErrorInit) {
    super(`${init.service} ${init.status ? `${init.status} ` : ''}${init.code}: ${init.message}`, { cause: init.cause });
    this.service = init.service;
    this.status = init.status;
    this.code = init.code;
    this.details = init.details;
    this.requestId = init.requestId;
  }
}

export class VerdictError extends ArbiterError {
  override readonly name = 'VerdictError';
  declare readonly service: 'verdict';
  declare readonly code: VerdictErrorCode;
}

export class LedgerError extends ArbiterError {
  override readonly name = 'LedgerError';
  declare readonly service: 'ledger';
  declare readonly code: LedgerErrorCode;
}

export class RegistryError extends ArbiterError {
  override readonly name = 'RegistryError';
  declare readonly service: 'registry';
  declare readonly code: RegistryErrorCode;
}

const REGISTRY_CODE_BY_STATUS: Record<number, RegistryErrorCode> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  422: 'unprocessable',
  429: 'rate_limited',
  503: 'unavailable',
};

const ERROR_CLASSES = { verdict: VerdictError, ledger: LedgerError, registry: RegistryError } as const;

/** The typed error for a non-2xx answer, from its status and (already parsed) body. */
export function errorFromResponse(service: ServiceName, status: number, body: unknown, requestId?: string): ArbiterError {
  const Cls = ERROR_CLASSES[service];
  const obj = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  if (service === 'registry') {
    const detail = typeof obj.detail === 'string' ? obj.detail : `HTTP ${status}`;
    const code =
      status === 403 && /not_a_valid_decider/.test(detail)
        ? 'not_a_valid_decider'
        : (REGISTRY_CODE_BY_STATUS[status] ?? (status >= 500 ? 'internal_error' : `http_${status}`));
    return new Cls({ service, status, code, message: detail, requestId });
  }
  if (typeof obj.code === 'string') {
    return new Cls({
      service,
      status,
      code: obj.code,
      message: typeof obj.message === 'string' ? obj.message : obj.code,
      details: obj.details,
      requestId,
    });
  }
  // A proxy or load balancer answered, not the service: keep the status, say so.
  const text = typeof body === 'string' && body ? body.slice(0, 200) : `HTTP ${status} without an error body`;
  return new Cls({ service, status, code: status >= 500 ? 'internal_error' : 'invalid_response', message: text, requestId });
}

/** The service could not be reached, or answered something that is not its API. */
export function transportError(service: ServiceName, code: TransportErrorCode, message: string, cause?: unknown): ArbiterError {
  return new ERROR_CLASSES[service]({ service, status: 0, code, message, cause });
}

export type VerdictVerificationCode =
  /** Not a compact JWS, an undecodable header or payload, or claims missing or of the wrong type. */
  | 'malformed'
  /** The header's alg is not ES256 (RFC 7518 section 3.4), the only algorithm verdicts use. */
  | 'unsupported_alg'
  /** No key with the header's kid in the tenant's key set (even after refetching it). */
  | 'unknown_kid'
  /** The ES256 signature does not verify with that key. */
  | 'invalid_signature'
  /** iat lies outside the key's [not_before, not_after) window. */
  | 'key_not_valid_at_iat'
  /** The key has been retired (not_after set) and the caller's policy refuses retired keys. */
  | 'key_retired'
  /** now >= exp: the right to act on the verdict has ended (the signature stays evidence). */
  | 'expired'
  /** The kid or tenant_id does not belong to the expected tenant. */
  | 'tenant_mismatch'
  /** The key set could not be fetched or is not a key set. */
  | 'jwks_unavailable';

/** A signed verdict failed verification; `code` says which check. */
export class VerdictVerificationError extends Error {
  override readonly name = 'VerdictVerificationError';
  readonly code: VerdictVerificationCode;
  /** The claims, when the payload could be decoded (e.g. for an expired verdict). */
  readonly claims?: Record<string, unknown>;
  readonly kid?: string;

  constructor(
    code: VerdictVerificationCode,
    message: string,
    extra: { claims?: Record<string, unknown>; kid?: string; cause?: unknown } = {},
  ) {
    super(message, { cause: extra.cause });
    this.code = code;
    this.claims = extra.claims;
    this.kid = extra.kid;
  }
}

export type ResolveLoopErrorCode =
  /** The caller's round cap was reached while the service still asked for context. */
  | 'round_cap_reached'
  /** The fact provider supplied nothing usable for the outstanding requirements: another round would not progress. */
  | 'no_progress'
  /** A provided fact falls short of its Requirement and the loop was told to refuse such facts. */
  | 'fact_rejected';

export class ResolveLoopError extends Error {
  override readonly name = 'ResolveLoopError';
  readonly code: ResolveLoopErrorCode;
  readonly rounds: number;
  /** The requirements still outstanding. */
  readonly requirements: unknown[];
  readonly details?: unknown;

  constructor(code: ResolveLoopErrorCode, message: string, init: { rounds: number; requirements: unknown[]; details?: unknown }) {
    super(message);
    this.code = code;
    this.rounds = init.rounds;
    this.requirements = init.requirements;
    this.details = init.details;
  }
}

export type ApprovalWaitErrorCode = 'approval_timeout' | 'approval_expired' | 'aborted';

/**
 * The approval was not decided within the time allowed (`approval_timeout`: it stays pending on the
 * service), or it expired undecided (`approval_expired`: it can no longer be decided; request a new one).
 */
export class ApprovalWaitError extends Error {
  override readonly name = 'ApprovalWaitError';
  readonly code: ApprovalWaitErrorCode;
  /** The approval as last read. */
  readonly approval: unknown;

  constructor(code: ApprovalWaitErrorCode, message: string, approval: unknown) {
    super(message);
    this.code = code;
    this.approval = approval;
  }
}

/** An input of a verification is unusable (not JSON of the expected kind, a key that does not parse). */
export class InputError extends Error {
  override readonly name = 'InputError';
  readonly code = 'invalid_input';
}
