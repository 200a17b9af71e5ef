import { Body, Controller, Get, Path, Post, Query, Request, Response, Route, Security, Tags } from '@tsoa/runtime';
import type { AuthedRequest } from '@arbiter/auth';
import type { VerdictContext } from '../context';
import type { ConsultationRecord } from '../domain/consultation-record';
import type { ErrorBody } from '../models/errors';
import type { ConsultationEvidence } from '../models/evidence';
import type { ConsultationOutcome, OutcomeBody } from '../models/outcomes';
import type { ConsultationExplanation, ConsultationRead } from '../models/verdicts';

export interface ConsultationList {
  items: ConsultationRecord[];
  /** Pass as `cursor` for the next page; null on the last one. */
  next_cursor: string | null;
}

@Route('{tenant_id}/v1/consultations')
@Tags('Consultations')
export class ConsultationsController extends Controller {
  constructor(private readonly ctx: VerdictContext) {
    super();
  }

  /**
   * The frozen record, exactly as it stood at decision time: recompute normative_hash from it, or
   * verify signed_verdict against the tenant JWKS key named by signing_kid (docs/verdicts.md).
   * A record with sensitive values holds their commitments; to a `read` caller it also answers
   * `sensitive_values` beside it, outside what the hashes cover (docs/verdicts.md "Sensitive fields").
   * Needs `read` or `check`; a key restricted to some scopes reads only consultations whose cited rules all lie
   * in them (404 otherwise, docs/verdicts.md "Authentication").
   * @summary Get a consultation record
   * @param tenant_id The tenant id (`tnt-`); it must be the API key's own tenant.
   * @param consultation_id The consultation id (`cns-`).
   */
  @Get('{consultation_id}')
  @Security('apiKey')
  @Response<ErrorBody>(403, "cross_tenant_forbidden (another tenant's consultation), insufficient_permission")
  @Response<ErrorBody>(404, 'consultation_not_found')
  async getConsultation(
    @Path() tenant_id: string,
    @Path() consultation_id: string,
    @Request() req: AuthedRequest,
  ): Promise<ConsultationRead> {
    return this.ctx.consultations.get(req.user, tenant_id, consultation_id);
  }

  /**
   * What would have made a blocked or approval_required operation allowed (docs/verdicts.md
   * "Explanations"), computed now from the frozen record: its request, its precedence trace and the
   * rule versions it names, as they were when it was decided. The same explanation the check or
   * resolve answered with `"explain": true`; a rule changed since does not change it. `explanation` is
   * null for other verdicts. Needs `read` or `check`.
   * @summary Explain a consultation
   * @param tenant_id The tenant id (`tnt-`); it must be the API key's own tenant.
   * @param consultation_id The consultation id (`cns-`).
   */
  @Get('{consultation_id}/explanation')
  @Security('apiKey')
  @Response<ErrorBody>(403, "cross_tenant_forbidden (another tenant's consultation), insufficient_permission")
  @Response<ErrorBody>(404, 'consultation_not_found')
  @Response<ErrorBody>(
    503,
    'registry_unavailable: the rule versions cannot be read right now; evaluation_budget_exceeded: the explanation ran past EVALUATION_BUDGET_MS',
  )
  async getConsultationExplanation(
    @Path() tenant_id: string,
    @Path() consultation_id: string,
    @Request() req: AuthedRequest,
  ): Promise<ConsultationExplanation> {
    return this.ctx.explanations.get(req.user, tenant_id, consultation_id);
  }

  /**
   * The ledger's proof that the consultation was sealed (docs/evidence.md "Evidence of a
   * consultation"): the fact the worker sealed into `arbiter.<tenant_id>.consultations` under the
   * consultation's id, its inclusion proof (RFC 9162 2.1.3) and the checkpoint it leads to, signed by
   * the ledger now, with the fact itself and the ledger's published keys (which prove nothing by themselves:
   * docs/evidence.md "Trusted keys"). Sealing is asynchronous: until the fact exists, 409 evidence_pending (retry).
   * Needs `read` or `check`.
   * @summary The ledger's proof that a consultation was sealed
   * @param tenant_id The tenant id (`tnt-`); it must be the API key's own tenant.
   * @param consultation_id The consultation id (`cns-`).
   */
  @Get('{consultation_id}/evidence')
  @Security('apiKey')
  @Response<ErrorBody>(403, "cross_tenant_forbidden (another tenant's consultation), insufficient_permission")
  @Response<ErrorBody>(404, 'consultation_not_found')
  @Response<ErrorBody>(409, 'evidence_pending: not sealed in the ledger yet; Retry-After says when to ask again')
  @Response<ErrorBody>(503, 'ledger_unavailable: the ledger cannot be reached (or LEDGER_URL is not set)')
  async getConsultationEvidence(
    @Path() tenant_id: string,
    @Path() consultation_id: string,
    @Request() req: AuthedRequest,
  ): Promise<ConsultationEvidence> {
    return this.ctx.evidence.consultation(req.user, tenant_id, consultation_id);
  }

  /**
   * Says whether the operation a consultation decided was carried out (docs/verdicts.md "Windows and
   * outcomes"). `executed: false` gives back, once, what the consultation consumed in the windows of
   * `limit` rules, and withdraws the marks it left for `requires_prior` rules; the answer lists the amounts
   * given back. An outcome is reported once: the same report again answers the same, the other value is
   * 409 outcome_already_reported. The record itself never changes. Needs `check`, and only the
   * consultation's own caller may report: any other consultation id is 404 consultation_not_found.
   * @summary Report a consultation's outcome
   * @param tenant_id The tenant id (`tnt-`); it must be the API key's own tenant.
   * @param consultation_id The consultation id (`cns-`).
   */
  @Post('{consultation_id}/outcome')
  @Security('apiKey')
  @Response<ErrorBody>(400, 'validation_failed')
  @Response<ErrorBody>(403, 'cross_tenant_forbidden (the path names another tenant), insufficient_permission')
  @Response<ErrorBody>(404, "consultation_not_found (unknown, another tenant's or another caller's consultation)")
  @Response<ErrorBody>(409, 'outcome_already_reported: the other outcome was reported before (details.executed)')
  @Response<ErrorBody>(503, 'windows_unavailable: the window store cannot be written right now (nothing was recorded); retry')
  async reportConsultationOutcome(
    @Path() tenant_id: string,
    @Path() consultation_id: string,
    @Request() req: AuthedRequest,
    @Body() body: OutcomeBody,
  ): Promise<ConsultationOutcome> {
    return this.ctx.outcomes.report(req.user, tenant_id, consultation_id, body.executed);
  }

  /**
   * Newest first. Date-only bounds cover whole UTC days (`until=2026-03-01` includes that day).
   * Needs `read` or `check`. For a key restricted to some scopes a page leaves out the consultations it does not
   * reach, so it may hold fewer than `limit` items (docs/verdicts.md "Authentication").
   * @param actor The calling principal (caller_principal_id).
   * @param since ISO 8601 date or timestamp, inclusive.
   * @param until ISO 8601 date or timestamp, inclusive.
   * @param verdict e.g. allowed, blocked, approval_required.
   * @param limit Default 50, at most 1000.
   * @isInt limit must be an integer from 1 to 1000
   * @param cursor next_cursor of the previous page.
   * @summary List consultations
   * @param tenant_id The tenant id (`tnt-`); it must be the API key's own tenant.
   * @param action Only consultations of this action (e.g. payments.transfer).
   * @param dominating_rule_id Only consultations whose verdict this rule decided.
   * @minimum limit 1 must be an integer from 1 to 1000
   * @maximum limit 1000 must be an integer from 1 to 1000
   */
  @Get()
  @Security('apiKey')
  @Response<ErrorBody>(400, 'invalid_query, invalid_cursor')
  async listConsultations(
    @Path() tenant_id: string,
    @Request() req: AuthedRequest,
    @Query() actor?: string,
    @Query() since?: string,
    @Query() until?: string,
    @Query() action?: string,
    @Query() verdict?: string,
    @Query() dominating_rule_id?: string,
    @Query() limit?: number,
    @Query() cursor?: string,
  ): Promise<ConsultationList> {
    return this.ctx.consultations.list(req.user, tenant_id, { actor, since, until, action, verdict, dominating_rule_id, limit, cursor });
  }
}
