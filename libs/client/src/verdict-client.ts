// The verdict gateway's client (docs/verdicts.md). Every request goes through openapi-fetch typed by the
// generated paths of apps/verdict/openapi.json; the methods only name the operation, fill the tenant
// and unwrap errors into VerdictError.
import type { Client } from 'openapi-fetch';
import { createServiceClient, cursorPages, unwrap, unwrapWithResponse, type ServiceClientOptions } from './http';
import type {
  Approval,
  ApprovalList,
  ApprovalListQuery,
  CheckRequest,
  CheckResponse,
  ConsultationEvidence,
  ConsultationOutcome,
  ConsultationExplanation,
  ConsultationList,
  ConsultationRead,
  Erasure,
  ErasureList,
  CreateApprovalBody,
  DecideApprovalBody,
  Identity,
  KeySet,
  OutcomeReport,
  OverviewResolveRequest,
  ResolveRequest,
  ResolveResponse,
  RotationMode,
  RuleVersion,
  SigningKeyRotation,
  SimulationRequest,
  SimulationResult,
  VerdictGeneratedPaths,
} from './types';

export type VerdictPaths = VerdictGeneratedPaths;

export interface VerdictClientOptions extends ServiceClientOptions {
  /** The tenant id (`tnt-…`) or slug of the API key. Default: asked once from GET /v1/whoami. */
  tenant?: string;
}

export interface CallOptions {
  /** Another tenant than the client's (platform admins on the signing-key endpoints). */
  tenant?: string;
}

export interface EvaluateOptions extends CallOptions {
  /** X-Verdict-TTL: seconds the verdict may be acted on, 1 to 3600 (default: the tenant's setting). */
  ttlSeconds?: number;
}

export type ConsultationQuery = NonNullable<VerdictGeneratedPaths['/{tenant_id}/v1/consultations']['get']['parameters']['query']>;

export interface VerdictClient {
  readonly service: 'verdict';
  readonly baseUrl: string;
  /** The typed openapi-fetch client, for operations the methods below do not cover. */
  readonly raw: Client<VerdictPaths>;
  /** The tenant of this client's key (from the options, else from whoami, asked once). */
  tenant(): Promise<string>;
  whoami(): Promise<Identity>;
  check(request: CheckRequest, opts?: EvaluateOptions): Promise<CheckResponse>;
  resolve(request: ResolveRequest | OverviewResolveRequest, opts?: EvaluateOptions): Promise<ResolveResponse>;
  getConsultation(consultationId: string, opts?: CallOptions): Promise<ConsultationRead>;
  listConsultations(query?: ConsultationQuery, opts?: CallOptions): Promise<ConsultationList>;
  /** Every page of the list (newest first), following next_cursor; `query.cursor` is ignored. */
  consultationPages(query?: Omit<ConsultationQuery, 'cursor'>, opts?: CallOptions): AsyncGenerator<ConsultationList>;
  /** Where the consultation is sealed in the ledger, with its inclusion proof; 409 `evidence_pending` until sealed. */
  getConsultationEvidence(consultationId: string, opts?: CallOptions): Promise<ConsultationEvidence>;
  /**
   * What would have made the consultation's operation allowed, computed from its frozen record: the same
   * explanation check or resolve answer with `explain: true` (null for a verdict other than blocked and
   * approval_required). docs/verdicts.md "Explanations".
   */
  getConsultationExplanation(consultationId: string, opts?: CallOptions): Promise<ConsultationExplanation>;
  getRuleVersion(ruleVersionId: string): Promise<RuleVersion>;
  /**
   * Reports whether the operation a consultation allowed was carried out (only its own caller may):
   * `executed: false` gives back what it took of its windows and the marks it left, once; the same report
   * again answers the same, the other value afterwards is 409 `outcome_already_reported`.
   * docs/verdicts.md "Worked examples: budgets and sequences".
   */
  outcome(consultationId: string, report: OutcomeReport, opts?: CallOptions): Promise<ConsultationOutcome>;
  /**
   * POST /<tenant>/v1/simulations (`manage_rules`): replays the window's stored consultations against the
   * current rules and the proposed changes, and answers what changed; writes nothing (docs/verdicts.md "Simulation").
   */
  simulate(body: SimulationRequest, opts?: CallOptions): Promise<SimulationResult>;
  /** The tenant's key set and how long it may be cached (Cache-Control max-age, seconds). */
  jwks(tenantSlug?: string): Promise<{ keySet: KeySet; maxAgeSeconds: number | null }>;
  /** URL of the tenant's public key set, for verifyVerdict({ jwksUrl }) and requireVerdict. */
  jwksUrl(tenantSlug?: string): Promise<string>;
  setupSigningKeys(opts?: CallOptions): Promise<unknown>;
  rotateSigningKey(mode: RotationMode, opts?: CallOptions): Promise<SigningKeyRotation>;
  createApproval(body: CreateApprovalBody, opts?: CallOptions): Promise<Approval>;
  getApproval(approvalId: string, opts?: CallOptions): Promise<Approval>;
  listApprovals(query?: ApprovalListQuery, opts?: CallOptions): Promise<ApprovalList>;
  decideApproval(approvalId: string, body: DecideApprovalBody, opts?: CallOptions): Promise<Approval>;
  /** Erases a data subject (`admin`; docs/operations.md "Erasure"): the first erasure, whether this call made it or not. */
  createErasure(subject: string | number, opts?: CallOptions): Promise<Erasure>;
  listErasures(query?: { limit?: number; cursor?: string }, opts?: CallOptions): Promise<ErasureList>;
}

/** Parses `max-age=<n>` out of a Cache-Control header (RFC 9111 section 5.2.2.1). */
export function maxAgeOf(cacheControl: string | null): number | null {
  const m = /(?:^|,)\s*max-age\s*=\s*"?(\d+)"?/i.exec(cacheControl ?? '');
  if (!m || /(?:^|,)\s*no-store\b/i.test(cacheControl ?? '')) return null;
  return Number(m[1]);
}

export function createVerdictClient(opts: VerdictClientOptions): VerdictClient {
  const raw = createServiceClient<VerdictPaths>('verdict', opts);
  const baseUrl = opts.baseUrl.replace(/\/+$/, '');
  let identity: Promise<Identity> | undefined;
  const whoami = () => {
    identity ??= unwrap('verdict', raw.GET('/v1/whoami')).catch((err: unknown) => {
      identity = undefined; // a failed lookup is retried next time
      throw err;
    });
    return identity;
  };
  const tenantOf = async (o?: CallOptions) => o?.tenant ?? opts.tenant ?? (await whoami()).tenant_id;
  const slugOf = async (slug?: string) =>
    slug ?? (opts.tenant && !opts.tenant.startsWith('tnt-') ? opts.tenant : (await whoami()).tenant_slug);
  const ttlHeader = (o?: EvaluateOptions) => (o?.ttlSeconds === undefined ? undefined : { 'X-Verdict-TTL': String(o.ttlSeconds) });

  return {
    service: 'verdict',
    baseUrl,
    raw,
    tenant: () => tenantOf(),
    whoami,
    async check(request, o) {
      const tenant_id = await tenantOf(o);
      return unwrap('verdict', raw.POST('/{tenant_id}/v1/check', { params: { path: { tenant_id }, header: ttlHeader(o) }, body: request }));
    },
    async resolve(request, o) {
      const tenant_id = await tenantOf(o);
      return unwrap(
        'verdict',
        raw.POST('/{tenant_id}/v1/resolve', { params: { path: { tenant_id }, header: ttlHeader(o) }, body: request }),
      );
    },
    async getConsultation(consultation_id, o) {
      const tenant_id = await tenantOf(o);
      return unwrap(
        'verdict',
        raw.GET('/{tenant_id}/v1/consultations/{consultation_id}', { params: { path: { tenant_id, consultation_id } } }),
      );
    },
    async listConsultations(query, o) {
      const tenant_id = await tenantOf(o);
      return unwrap('verdict', raw.GET('/{tenant_id}/v1/consultations', { params: { path: { tenant_id }, query } }));
    },
    async *consultationPages(query, o) {
      const tenant_id = await tenantOf(o);
      yield* cursorPages((cursor) =>
        unwrap('verdict', raw.GET('/{tenant_id}/v1/consultations', { params: { path: { tenant_id }, query: { ...query, cursor } } })),
      );
    },
    async getConsultationEvidence(consultation_id, o) {
      const tenant_id = await tenantOf(o);
      return unwrap(
        'verdict',
        raw.GET('/{tenant_id}/v1/consultations/{consultation_id}/evidence', { params: { path: { tenant_id, consultation_id } } }),
      );
    },
    async getConsultationExplanation(consultation_id, o) {
      const tenant_id = await tenantOf(o);
      return unwrap(
        'verdict',
        raw.GET('/{tenant_id}/v1/consultations/{consultation_id}/explanation', { params: { path: { tenant_id, consultation_id } } }),
      );
    },
    async simulate(body, o) {
      const tenant_id = await tenantOf(o);
      return unwrap('verdict', raw.POST('/{tenant_id}/v1/simulations', { params: { path: { tenant_id } }, body }));
    },
    async outcome(consultation_id, report, o) {
      const tenant_id = await tenantOf(o);
      return unwrap(
        'verdict',
        raw.POST('/{tenant_id}/v1/consultations/{consultation_id}/outcome', {
          params: { path: { tenant_id, consultation_id } },
          body: { executed: report.executed },
        }),
      );
    },
    getRuleVersion: (rule_version_id) =>
      unwrap('verdict', raw.GET('/v1/rule-versions/{rule_version_id}', { params: { path: { rule_version_id } } })),
    async jwks(tenantSlug) {
      const tenant_slug = await slugOf(tenantSlug);
      const { data, response } = await unwrapWithResponse(
        'verdict',
        raw.GET('/v1/tenants/{tenant_slug}/jwks', { params: { path: { tenant_slug } } }),
      );
      return { keySet: data, maxAgeSeconds: maxAgeOf(response.headers.get('cache-control')) };
    },
    async jwksUrl(tenantSlug) {
      return `${baseUrl}/v1/tenants/${encodeURIComponent(await slugOf(tenantSlug))}/jwks`;
    },
    async setupSigningKeys(o) {
      const tenant_id = await tenantOf(o);
      return unwrap('verdict', raw.POST('/{tenant_id}/v1/signing-keys', { params: { path: { tenant_id } } }));
    },
    async rotateSigningKey(mode, o) {
      const tenant_id = await tenantOf(o);
      return unwrap('verdict', raw.POST('/{tenant_id}/v1/signing-keys/rotate', { params: { path: { tenant_id } }, body: { mode } }));
    },
    async createApproval(body, o) {
      const tenant_id = await tenantOf(o);
      return unwrap('verdict', raw.POST('/{tenant_id}/v1/approvals', { params: { path: { tenant_id } }, body }));
    },
    async createErasure(subject, o) {
      const tenant_id = await tenantOf(o);
      return unwrap('verdict', raw.POST('/{tenant_id}/v1/erasures', { params: { path: { tenant_id } }, body: { subject } }));
    },
    async listErasures(query, o) {
      const tenant_id = await tenantOf(o);
      return unwrap('verdict', raw.GET('/{tenant_id}/v1/erasures', { params: { path: { tenant_id }, query } }));
    },
    async getApproval(approval_id, o) {
      const tenant_id = await tenantOf(o);
      return unwrap('verdict', raw.GET('/{tenant_id}/v1/approvals/{approval_id}', { params: { path: { tenant_id, approval_id } } }));
    },
    async listApprovals(query, o) {
      const tenant_id = await tenantOf(o);
      return unwrap('verdict', raw.GET('/{tenant_id}/v1/approvals', { params: { path: { tenant_id }, query } }));
    },
    async decideApproval(approval_id, body, o) {
      const tenant_id = await tenantOf(o);
      return unwrap(
        'verdict',
        raw.POST('/{tenant_id}/v1/approvals/{approval_id}/decision', { params: { path: { tenant_id, approval_id } }, body }),
      );
    },
  };
}
