import type { Logger } from 'pino';
import type { AuthenticatedIdentity, TenantId } from '@arbiter/auth';
import { AppError, type ServiceMetrics } from '@arbiter/http';
import { newId } from '@arbiter/db';
import { inSpan, tracingEnabled } from '@arbiter/telemetry';
import { evaluate, explain, factContradictingParameters, type CompleteEvaluation, type EvaluationRequest, type Explanation, type Fact, type Scope } from '@arbiter/policy';
import type { ConsultationRecord, RequiredContextRound } from '../domain/consultation-record';
import type { ConsultationRepository } from '../repositories/consultations.repository';
import { principalDeactivated } from '../http/errors';
import { ownTenant } from '../http/tenant-access';
import { signingKeyUnavailable, type VerdictKeys } from '../keys';
import type {
  CheckResponse,
  IncompleteResolveResponse,
  OverviewIncompleteResponse,
  ResolveResponse,
} from '../models/verdicts';
import type { ResolveSessionRepository, ResolveSessionState } from '../repositories/resolve-sessions.repository';
import type { SnapshotStore } from './snapshot-store.service';
import { LedgerCitationsService, unconfiguredCitationSource } from './ledger-citations.service';
import { EvaluationBudget } from './evaluation-budget.service';
import { engineContext } from '../domain/ledger-citation';
import type { TenantSnapshot } from '../domain/tenant-snapshot';
import { buildConsultation, contextHash, type DecisionInput, type SealedConsultation } from '../domain/consultation-builder';
import { explanationBasis } from '../domain/explanation-basis';
import { presentCheck, presentOverviewComplete, presentRequirements, presentResolveComplete } from '../presenters/verdicts';
import { mergeScope, parseCheckBody, parseResolveBody, parseVerdictTtl, scopeFromContext, validateScope, type ParsedResolve } from '../http/request-parsing';

/** The one-shot approvals a check may use (repositories/approvals.repository.ts). */
export interface OneShotApprovals {
  /** An unconsumed one-shot approval of `requester` whose consultation had this context_hash, with the rule versions it lifts by rule id. */
  findOneShot(tenantId: TenantId, requester: string, contextHash: string, now: Date): Promise<{ id: string; rule_versions: Record<string, string> } | null>;
  consumeOneShot(tenantId: TenantId, id: string, consultationId: string, at: Date): Promise<boolean>;
  releaseOneShot(tenantId: TenantId, id: string, consultationId: string): Promise<void>;
}

export interface EvaluationDeps {
  metrics?: ServiceMetrics;
  /** Absent: no check ever uses a one-shot approval (unit tests of other paths). */
  oneShots?: OneShotApprovals;
  snapshots: SnapshotStore;
  keys: VerdictKeys;
  consultations: ConsultationRepository;
  sessions: ResolveSessionRepository;
  logger: Logger;
  issuer: string;
  sessionTtlSeconds: number;
  /**
   * The most a resolve session's accumulated context may weigh, in bytes of JSON: what one request could
   * carry (BODY_LIMIT). Default 1 MiB.
   */
  maxSessionContextBytes?: number;
  /** Verifies ledger citations (docs/verdicts.md "Facts the ledger vouches for"). Absent: a citation is 503 ledger_unavailable. */
  citations?: LedgerCitationsService;
  /** docs/verdicts.md "Evaluation budget" (EVALUATION_BUDGET_MS); absent: the defaults. */
  budget?: EvaluationBudget;
  now?: () => number;
}

/** What a complete answer carries besides its body: the response headers of docs/verdicts.md "check". */
export interface Answer<T> {
  body: T;
  /** X-Verdict-TTL and X-Consultation-Id (complete answers only). */
  ttlSeconds?: number;
  consultationId?: string;
}

/** A complete evaluation on its way to a consultation record: the builder's input, before the service fills in ids and the snapshot's fields. */
interface Decision
  extends Pick<
    DecisionInput,
    'operation' | 'requestedAt' | 'action' | 'resource' | 'scope' | 'parameters' | 'context' | 'contextHash' | 'evaluation' | 'ttlSeconds' | 'history' | 'correlation' | 'ledgerCitations'
  > {
  identity: AuthenticatedIdentity;
  snapshot: TenantSnapshot;
  onBehalfOf: string | undefined;
  /** Set when a one-shot approval was consumed for this consultation (its id is then fixed). */
  oneShot?: { approvalId: string; consultationId: string };
}

const KNOWN_VERDICTS = new Set(['allowed', 'blocked', 'approval_required', 'observe']);

const EMPTY: Record<string, never> = Object.freeze({}) as Record<string, never>;

/**
 * check and resolve (docs/verdicts.md "The gateway's API"). Both evaluate against the tenant snapshot in
 * memory; every complete evaluation is signed and its consultation committed (group commit) before
 * the answer leaves.
 */
export class EvaluationService {
  private readonly now: () => number;
  private readonly citations: LedgerCitationsService;
  private readonly budget: EvaluationBudget;
  private readonly verdicts;
  private readonly shadowDisagreements;

  constructor(private readonly deps: EvaluationDeps) {
    this.now = deps.now ?? Date.now;
    this.citations = deps.citations ?? new LedgerCitationsService(unconfiguredCitationSource);
    this.budget = deps.budget ?? new EvaluationBudget();
    this.verdicts = deps.metrics?.counter<'operation' | 'verdict'>('verdicts_total', {
      help: 'Signed verdicts by operation and verdict (tenant-defined verdicts count as other)',
      labelNames: ['operation', 'verdict'],
    });
    // One series per shadow rule that ever disagreed (docs/operations.md "Metrics" notes the cardinality).
    this.shadowDisagreements = deps.metrics?.counter<'rule_id' | 'would_be'>('verdict_shadow_disagreements_total', {
      help: 'Signed verdicts a shadow rule would have decided otherwise, by shadow rule and the verdict it would have given',
      labelNames: ['rule_id', 'would_be'],
    });
  }

  private async snapshotFor(identity: AuthenticatedIdentity, tenantParam: string): Promise<TenantSnapshot> {
    const tenantId = ownTenant(identity, tenantParam);
    const snapshot = this.deps.snapshots.current(tenantId) ?? (await this.deps.snapshots.get(tenantId));
    // The registry's state is fresher than the 30 s key cache when it announced a deactivation.
    const self = snapshot.principals.get(identity.principal.id);
    if (self && !self.active) throw principalDeactivated();
    return snapshot;
  }

  /**
   * POST /<tenant_id>/v1/check, from the fast lane and the tsoa route alike (http/evaluation-routes.ts):
   * the raw body is parsed and validated here, once. While tracing is on, in a `verdict.check` span.
   */
  check(identity: AuthenticatedIdentity, tenantParam: string, rawBody: unknown, ttlHeader: string | string[] | undefined): Promise<Answer<CheckResponse>> {
    if (!tracingEnabled()) return this.runCheck(identity, tenantParam, rawBody, ttlHeader);
    return traced('verdict.check', identity, () => this.runCheck(identity, tenantParam, rawBody, ttlHeader));
  }

  /** POST /<tenant_id>/v1/resolve, both variants; the raw body is parsed and validated here, once. In a `verdict.resolve` span while tracing is on. */
  resolve(identity: AuthenticatedIdentity, tenantParam: string, rawBody: unknown, ttlHeader: string | string[] | undefined): Promise<Answer<ResolveResponse>> {
    if (!tracingEnabled()) return this.runResolve(identity, tenantParam, rawBody, ttlHeader);
    return traced('verdict.resolve', identity, () => this.runResolve(identity, tenantParam, rawBody, ttlHeader));
  }

  private async runCheck(identity: AuthenticatedIdentity, tenantParam: string, rawBody: unknown, ttlHeader: string | string[] | undefined): Promise<Answer<CheckResponse>> {
    const body = parseCheckBody(rawBody);
    const ttlOverride = parseVerdictTtl(ttlHeader);
    const snapshot = await this.snapshotFor(identity, tenantParam);
    const scope = validateScope(body.scope, snapshot.scopeFields, 'invalid_scope_field');
    // The Facts as sent are hashed and recorded; the engine sees verified ledger citations as ledger Facts.
    const context = (body.context as Record<string, Fact> | undefined) ?? EMPTY;
    const parameters = body.parameters ?? EMPTY;
    refuseContradictingFacts(parameters, context);
    const citations = await this.citations.verify(snapshot.tenantId, context, { principalId: identity.principal.id, onBehalfOf: body.on_behalf_of });
    const hash = contextHash({ action: body.action, resource: body.resource, scope, parameters, context });
    const requestedAt = new Date(this.now());
    const request = { mode: 'check' as const, action: body.action, resource: body.resource, scope, parameters, context: engineContext(context, citations) };
    // Each synchronous run of the engine gets its own budget (docs/verdicts.md "Evaluation budget").
    let deadline = this.budget.start();
    let result = this.budget.run('check', snapshot.tenantId, () => evaluate(snapshot.policy, request, requestedAt, null, deadline));
    if (result.status === 'insufficient_context') {
      throw new AppError(422, 'insufficient_context', `A rule needs context the request lacks: ${result.missing_fields.map((f) => f.field).join(', ')} (resolve is the tolerant alternative)`, {
        missing_fields: result.missing_fields.map((f) => f.field),
        required_context: presentRequirements(result.missing_fields),
      });
    }
    if (result.status !== 'complete') throw new Error(`check evaluation answered ${result.status}`);
    let oneShot: Decision['oneShot'];
    if (result.verdict === 'approval_required' && this.deps.oneShots) {
      const used = await this.useOneShotApproval(identity, snapshot, request, hash.digest, result, requestedAt);
      if (used) ({ result, oneShot } = used);
      deadline = this.budget.start(); // the approval was looked up in the database meanwhile
    }
    // Only when asked, for blocked and approval_required (explain answers null otherwise): docs/verdicts.md "Explanations".
    let explanation: Explanation | null = null;
    if (body.explain) {
      try {
        explanation = explain(snapshot.policy, request, result, requestedAt, deadline);
      } catch (err) {
        // Past the budget nothing is recorded: a one-shot approval this check used is given back.
        if (oneShot) await this.releaseOneShot(snapshot, oneShot);
        throw this.budget.refusal('check', snapshot.tenantId, err);
      }
    }
    const record = await this.decide({
      oneShot,
      operation: 'check',
      identity,
      snapshot,
      onBehalfOf: body.on_behalf_of,
      requestedAt,
      action: body.action,
      resource: body.resource,
      scope,
      parameters,
      context,
      contextHash: hash,
      ledgerCitations: citations,
      evaluation: result,
      ttlSeconds: appliedTtl(ttlOverride, snapshot),
      history: [],
      correlation: null,
    });
    return { body: presentCheck(record, explanation), ttlSeconds: record.verdict_ttl_seconds, consultationId: record.id };
  }

  private async runResolve(identity: AuthenticatedIdentity, tenantParam: string, rawBody: unknown, ttlHeader: string | string[] | undefined): Promise<Answer<ResolveResponse>> {
    const body = parseResolveBody(rawBody);
    const ttlOverride = parseVerdictTtl(ttlHeader);
    const snapshot = await this.snapshotFor(identity, tenantParam);
    const tenantId = snapshot.tenantId;
    const now = this.now();

    const session = body.resolve_session_id ? await this.openSession(identity, tenantId, body, now) : null;
    const round = (session?.rounds ?? 0) + 1;
    if (round > snapshot.maxResolveRounds) {
      throw new AppError(429, 'too_many_rounds', `This resolve session has used its ${snapshot.maxResolveRounds} rounds`, {
        max_resolve_rounds: snapshot.maxResolveRounds,
        rounds: session?.rounds ?? 0,
        resolve_session_id: session?.id,
      });
    }

    // Accumulate: later Facts replace earlier ones of the same field; scope only ever widens.
    const context: Record<string, Fact> = session ? { ...session.context, ...body.context } : body.context;
    if (session) this.refuseOversizedContext(session.id, context);
    // Every round checks the citations of the whole accumulated context (verified facts are cached), for
    // this round's caller and on_behalf_of: the round that completes is checked for the ones it records.
    const citations = await this.citations.verify(tenantId, context, { principalId: identity.principal.id, onBehalfOf: body.on_behalf_of });
    let scope: Scope = session?.scope ?? EMPTY;
    if (body.variant === 'detailed') scope = mergeScope(scope, validateScope(body.scope, snapshot.scopeFields, 'unknown_scope_field'), 'resolve_session_mismatch');
    scope = mergeScope(scope, scopeFromContext(context, snapshot.scopeFields), 'scope_conflict');
    const action = body.variant === 'detailed' ? body.action : body.action_type;
    const resource = body.variant === 'detailed' ? body.resource : overviewResource(context, session);
    if (body.variant === 'overview' && !this.budget.run('resolve', tenantId, () => snapshot.knowsAction(action, this.budget.start()))) {
      throw new AppError(404, 'unknown_action_type', `No rule of this tenant applies to action_type ${action}`, { action_type: action });
    }
    const correlation = (body.correlation ?? session?.correlation ?? null) as Record<string, unknown> | null;
    const parameters = EMPTY;
    const hash = contextHash({ action, resource, scope, parameters, context });
    const requestedAt = new Date(now);
    const request: EvaluationRequest = { mode: 'resolve', action, resource, scope, context: engineContext(context, citations) };
    const deadline = this.budget.start();
    const result = this.budget.run('resolve', tenantId, () => evaluate(snapshot.policy, request, requestedAt, null, deadline));

    if (result.status === 'incomplete') {
      const history = [...(session?.history ?? []), { round, fields: result.required_context.map((f) => f.field) }];
      const id = await this.saveRound(identity, tenantId, body, session, { action, resource, scope, context, round, history, correlation }, now);
      const required = presentRequirements(result.required_context);
      const answer: IncompleteResolveResponse | OverviewIncompleteResponse =
        body.variant === 'detailed'
          ? { operation_status: 'incomplete', resolve_session_id: id, round, required_context: required, provisional_context: result.provisional_context }
          : { operation_status: 'incomplete', required_context: required, resolve_session_id: id };
      return { body: answer };
    }
    if (result.status !== 'complete') throw new Error(`resolve evaluation answered ${result.status}`);

    const history = [...(session?.history ?? []), { round, fields: [] }];
    const explanation = body.explain ? this.budget.run('resolve', tenantId, () => explain(snapshot.policy, request, result, requestedAt, deadline)) : null;
    const record = await this.decide({
      operation: 'resolve',
      identity,
      snapshot,
      onBehalfOf: body.on_behalf_of,
      requestedAt,
      action,
      resource,
      scope,
      parameters,
      context,
      contextHash: hash,
      ledgerCitations: citations,
      evaluation: result,
      ttlSeconds: appliedTtl(ttlOverride, snapshot),
      history,
      correlation,
    });
    if (session) {
      const closed = await this.deps.sessions.advance(tenantId, session.id, session.rounds, {
        scope: scope as ResolveSessionState['scope'],
        context,
        rounds: round,
        history,
        correlation,
        expires_at: session.expires_at,
        consultation_id: record.id,
      });
      if (!closed) this.deps.logger.warn({ resolve_session_id: session.id, consultation_id: record.id }, 'resolve session advanced concurrently');
    }
    const answer = body.variant === 'detailed' ? presentResolveComplete(record, explanation) : presentOverviewComplete(record, explanation);
    return { body: answer, ttlSeconds: record.verdict_ttl_seconds, consultationId: record.id };
  }

  private async openSession(identity: AuthenticatedIdentity, tenantId: TenantId, body: ParsedResolve, now: number): Promise<ResolveSessionState> {
    const id = body.resolve_session_id!;
    const session = await this.deps.sessions.find(tenantId, id);
    // Another caller's session answers as an unknown one: session ids are not shared between principals.
    if (!session || session.caller_principal_id !== identity.principal.id || session.expires_at.getTime() <= now) {
      throw new AppError(404, 'resolve_session_not_found', `Resolve session ${id} does not exist or has expired`, { resolve_session_id: id });
    }
    if (session.completed_at) {
      throw new AppError(409, 'resolve_session_completed', `Resolve session ${id} is complete; start a new one`, {
        resolve_session_id: id,
        consultation_id: session.consultation_id,
      });
    }
    const sameOperation =
      session.variant === body.variant &&
      (body.variant === 'detailed' ? session.action === body.action && session.resource === body.resource : session.action === body.action_type);
    if (!sameOperation) {
      throw new AppError(409, 'resolve_session_mismatch', `Resolve session ${id} is about another operation`, {
        resolve_session_id: id,
        action: session.action,
        resource: session.resource,
      });
    }
    return session;
  }

  /**
   * A session's context grows round after round; it may grow to what one request could carry and no
   * further (docs/verdicts.md "The resolve loop"), or a caller could make the gateway store and hash a
   * context of max_resolve_rounds times the body limit: 422 resolve_context_too_large.
   */
  private refuseOversizedContext(sessionId: string, context: Record<string, Fact>): void {
    const max = this.deps.maxSessionContextBytes ?? 1024 * 1024;
    const size = Buffer.byteLength(JSON.stringify(context), 'utf8');
    if (size <= max) return;
    throw new AppError(422, 'resolve_context_too_large', `The accumulated context of resolve session ${sessionId} would weigh ${size} bytes, more than the ${max} one request may carry: start a new session with the fields that matter`, {
      resolve_session_id: sessionId,
      bytes: size,
      max_bytes: max,
    });
  }

  /** Stores an incomplete round: a new session, or the next round of the caller's one. */
  private async saveRound(
    identity: AuthenticatedIdentity,
    tenantId: TenantId,
    body: ParsedResolve,
    session: ResolveSessionState | null,
    next: { action: string; resource: string; scope: Scope; context: Record<string, Fact>; round: number; history: RequiredContextRound[]; correlation: Record<string, unknown> | null },
    now: number,
  ): Promise<string> {
    const expires_at = new Date(now + this.deps.sessionTtlSeconds * 1000);
    const scope = next.scope as ResolveSessionState['scope'];
    if (!session) {
      const id = newId('rsn-');
      await this.deps.sessions.create({
        id,
        tenant_id: tenantId,
        caller_principal_id: identity.principal.id,
        variant: body.variant,
        action: next.action,
        resource: next.resource,
        scope,
        context: next.context,
        rounds: next.round,
        history: next.history,
        correlation: next.correlation,
        expires_at,
      });
      return id;
    }
    const ok = await this.deps.sessions.advance(tenantId, session.id, session.rounds, {
      scope,
      context: next.context,
      rounds: next.round,
      history: next.history,
      correlation: next.correlation,
      expires_at,
    });
    if (!ok) {
      throw new AppError(409, 'resolve_session_conflict', `Another call advanced resolve session ${session.id} meanwhile; retry with the current context`, {
        resolve_session_id: session.id,
      });
    }
    return session.id;
  }

  /**
   * An approval_required check may be the operation an approval approved without a grant
   * (docs/approvals.md "The agent's loop"): same caller, same context_hash (the operation and its context
   * Facts, ledger citations included), still valid, unused. Its triggering rules, at the versions it was
   * asked for, are then neutralised for this one evaluation, and the approval is consumed by one
   * conditional UPDATE, so of two simultaneous checks exactly one is allowed. New triggers (rules the
   * approval did not cover, or changed since) keep the verdict approval_required and leave it unused.
   */
  private async useOneShotApproval(
    identity: AuthenticatedIdentity,
    snapshot: TenantSnapshot,
    request: EvaluationRequest,
    contextHash: string,
    result: CompleteEvaluation,
    requestedAt: Date,
  ): Promise<{ result: CompleteEvaluation; oneShot: NonNullable<Decision['oneShot']> } | null> {
    const oneShots = this.deps.oneShots!;
    const approval = await oneShots.findOneShot(snapshot.tenantId, identity.principal.id, contextHash, requestedAt);
    if (!approval) return null;
    const versions = approval.rule_versions;
    if (!result.triggers.length || !result.triggers.every((t) => versions[t.rule_id] === t.rule_version_id)) return null;
    const lifted = { approvalId: approval.id, ruleVersionIds: new Set(Object.values(versions)) };
    const again = this.budget.run('check', snapshot.tenantId, () => evaluate(snapshot.policy, request, requestedAt, lifted, this.budget.start()));
    if (again.status !== 'complete' || again.verdict === 'approval_required') return null;
    const consultationId = newId('cns-');
    if (!(await oneShots.consumeOneShot(snapshot.tenantId, approval.id, consultationId, requestedAt))) return null;
    return { result: again, oneShot: { approvalId: approval.id, consultationId } };
  }

  private async releaseOneShot(snapshot: TenantSnapshot, oneShot: NonNullable<Decision['oneShot']>): Promise<void> {
    await this.deps.oneShots
      ?.releaseOneShot(snapshot.tenantId, oneShot.approvalId, oneShot.consultationId)
      .catch((releaseErr: unknown) => this.deps.logger.error({ err: releaseErr, approval_id: oneShot.approvalId }, 'one-shot approval not released'));
  }

  /** Signs the verdict and commits its consultation; the answer waits for the commit. */
  private async decide(d: Decision): Promise<ConsultationRecord> {
    try {
      return await this.sealAndStore(d);
    } catch (err) {
      // The consultation that consumed a one-shot approval was not stored: give the approval back.
      if (d.oneShot) await this.releaseOneShot(d.snapshot, d.oneShot);
      throw err;
    }
  }

  private async sealAndStore(d: Decision): Promise<ConsultationRecord> {
    const onBehalfOf = d.onBehalfOf ?? null;
    const principal = onBehalfOf ? d.snapshot.principals.get(onBehalfOf) : undefined;
    // on_behalf_of is authenticated when it names an active human principal of the caller's tenant
    // (docs/verdicts.md "Delegation"): the claim is checked against the registry, not proven by the human.
    const authenticated = principal !== undefined && principal.kind === 'human' && principal.active;
    const signer = await this.deps.keys.signerFor(d.snapshot.tenantId);
    let sealed: SealedConsultation;
    try {
      sealed = buildConsultation(
        {
          id: d.oneShot?.consultationId ?? newId('cns-'),
          approvalId: d.oneShot?.approvalId ?? null,
          operation: d.operation,
          tenantId: d.snapshot.tenantId,
          callerPrincipalId: d.identity.principal.id,
          onBehalfOf,
          onBehalfOfAuthenticated: authenticated,
          requestedAt: d.requestedAt,
          action: d.action,
          resource: d.resource,
          scope: d.scope,
          parameters: d.parameters,
          context: d.context,
          contextHash: d.contextHash,
          ledgerCitations: d.ledgerCitations,
          evaluation: d.evaluation,
          ttlSeconds: d.ttlSeconds,
          history: d.history,
          correlation: d.correlation,
          stateHash: d.snapshot.stateHash,
          stateRevision: d.snapshot.revision,
          issuer: this.deps.issuer,
        },
        signer,
      );
    } catch (err) {
      if (err instanceof AppError) throw err;
      this.deps.logger.error({ err, tenant_id: d.snapshot.tenantId }, 'cannot sign the verdict');
      throw signingKeyUnavailable('signing failed');
    }
    // What a later GET .../explanation needs beyond the record (docs/verdicts.md "Explanations").
    await this.deps.consultations.save(sealed, explanationBasis(d.snapshot, sealed.record.verdict, sealed.record.precedence_trace));
    const { record } = sealed;
    this.verdicts?.inc({ operation: d.operation, verdict: KNOWN_VERDICTS.has(record.verdict) ? record.verdict : 'other' });
    if (record.shadow) for (const s of record.shadow) this.shadowDisagreements?.inc({ rule_id: s.rule_id, would_be: s.would_be });
    return record;
  }
}

/**
 * An evaluation in its span (docs/operations.md "Tracing"): the caller's tenant and principal, then the
 * verdict and the consultation id of a complete answer (`arbiter.operation_status` of an incomplete one).
 */
function traced<T>(name: string, identity: AuthenticatedIdentity, run: () => Promise<Answer<T>>): Promise<Answer<T>> {
  return inSpan(name, { attributes: { 'arbiter.tenant_id': identity.tenant_id, 'arbiter.principal_id': identity.principal.id } }, async (span) => {
    const answer = await run();
    const body = answer.body as { verdict?: unknown; operation_status?: unknown };
    if (answer.consultationId) span.setAttribute('arbiter.consultation_id', answer.consultationId);
    if (typeof body.verdict === 'string') span.setAttribute('arbiter.verdict', body.verdict);
    if (typeof body.operation_status === 'string') span.setAttribute('arbiter.operation_status', body.operation_status);
    return answer;
  });
}

/**
 * The seconds a verdict may be acted on (docs/verdicts.md "Limits"): X-Verdict-TTL may shorten the
 * tenant's verdict_ttl_seconds, never lengthen it (a larger value is lowered to it; X-Verdict-TTL in
 * the answer says what applied). The tenant decides how long its verdicts live, not the caller.
 */
function appliedTtl(requested: number | undefined, snapshot: TenantSnapshot): number {
  return requested === undefined ? snapshot.verdictTtlSeconds : Math.min(requested, snapshot.verdictTtlSeconds);
}

/**
 * One value per path (docs/verdicts.md "Parameters and context"): a context Fact that restates a path the
 * parameters hold with another value is 422 context_contradicts_parameters naming the field. The
 * parameters are what the verdict signs and the executor does; a Fact cannot make the rules see less.
 */
function refuseContradictingFacts(parameters: Record<string, unknown>, context: Record<string, Fact>): void {
  if (context === EMPTY) return;
  const field = factContradictingParameters(parameters, context);
  if (field === null) return;
  throw new AppError(422, 'context_contradicts_parameters', `Context field ${field} holds another value than parameters.${field}: a Fact cannot restate what the parameters say (send one value, or leave the Fact out)`, {
    field: `context.${field}`,
    parameters_field: `parameters.${field}`,
  });
}

/** Overview resolve names no resource: a `resource` Fact supplies it (else the session's, else ''). */
function overviewResource(context: Record<string, Fact>, session: ResolveSessionState | null): string {
  const fact = context.resource;
  if (fact && typeof fact.value === 'string') return fact.value;
  return session?.resource ?? '';
}
