import type { AuthenticatedIdentity, TenantId } from '@arbiter/auth';
import { AppError, shownId } from '@arbiter/http';
import { newId, newTimeOrderedId } from '@arbiter/db';
import { explain, type EvaluationRequest, type Fact, type Scope } from '@arbiter/policy';
import type { RequiredContextRound } from '../domain/consultation-record';
import { contextHash } from '../domain/consultation-builder';
import { appliedTtl, EMPTY, type Answer } from '../domain/evaluation-answer';
import { engineContext } from '../domain/ledger-citation';
import {
  mergeScope,
  parseResolveBody,
  parseVerdictTtl,
  scopeFromContext,
  validateScope,
  type ParsedResolve,
} from '../domain/request-parsing';
import type { IncompleteResolveResponse, OverviewIncompleteResponse, ResolveResponse } from '../models/verdicts';
import { presentOverviewComplete, presentRequirements, presentResolveComplete } from '../presenters/verdicts';
import type { ResolveSessionRepository, ResolveSessionState } from '../repositories/resolve-sessions.repository';
import type { SealedSessionFacts } from '../domain/sealed-values';
import {
  evaluateOperation,
  evaluationDefaults,
  keyPrincipals,
  shield,
  traced,
  windowKeyValue,
  type EvaluationBase,
  type EvaluationDeps,
} from './check.service';
import type { Shielded } from './sensitive-values.service';

export interface ResolveDeps extends EvaluationDeps {
  sessions: ResolveSessionRepository;
  sessionTtlSeconds: number;
  /**
   * The most a resolve session's accumulated context may weigh, in bytes of JSON: what one request could
   * carry (BODY_LIMIT). Default 1 MiB.
   */
  maxSessionContextBytes?: number;
}

/**
 * The resolve sessions (docs/verdicts.md "The resolve loop", "resolve"): each round adds its Facts to the
 * caller's session, widens the scope, and evaluates; an incomplete round is stored in the session and
 * answers what can still change the verdict; the round that completes is recorded like a check
 * (ConsultationRecorder) and closes the session.
 */
export class ResolveService {
  private readonly base: EvaluationBase;

  constructor(private readonly deps: ResolveDeps) {
    this.base = evaluationDefaults(deps);
  }

  /** POST /<tenant_id>/v1/resolve, both variants; the raw body is parsed and validated here, once. In a `verdict.resolve` span while tracing is on. */
  resolve(
    identity: AuthenticatedIdentity,
    tenantParam: string,
    rawBody: unknown,
    ttlHeader: string | string[] | undefined,
  ): Promise<Answer<ResolveResponse>> {
    return traced('verdict.resolve', identity, () => this.run(identity, tenantParam, rawBody, ttlHeader));
  }

  private async run(
    identity: AuthenticatedIdentity,
    tenantParam: string,
    rawBody: unknown,
    ttlHeader: string | string[] | undefined,
  ): Promise<Answer<ResolveResponse>> {
    const body = parseResolveBody(rawBody);
    const ttlOverride = parseVerdictTtl(ttlHeader);
    const snapshot = await this.deps.snapshots.forCaller(identity, tenantParam);
    const tenantId = snapshot.tenantId;
    const now = this.base.now();

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
    // A session keeps its sensitive Facts encrypted apart (docs/verdicts.md "Sensitive fields"); erased, they are gone.
    const context: Record<string, Fact> = session
      ? { ...session.context, ...(await this.sessionFacts(session)), ...body.context }
      : body.context;
    if (session) this.refuseOversizedContext(session.id, context);
    // Every round checks the citations of the whole accumulated context (verified facts are cached), for
    // this round's caller and on_behalf_of: the round that completes is checked for the ones it records.
    const citations = await this.base.citations.verify(tenantId, context, {
      principalId: identity.principal.id,
      onBehalfOf: body.on_behalf_of,
    });
    let scope: Scope = session?.scope ?? EMPTY;
    if (body.variant === 'detailed')
      scope = mergeScope(scope, validateScope(body.scope, snapshot.scopeFields, 'unknown_scope_field'), 'resolve_session_mismatch');
    scope = mergeScope(scope, scopeFromContext(context, snapshot.scopeFields), 'scope_conflict');
    const action = body.variant === 'detailed' ? body.action : body.action_type;
    const resource = body.variant === 'detailed' ? body.resource : overviewResource(context, session);
    if (
      body.variant === 'overview' &&
      !this.base.budget.run('resolve', tenantId, () => snapshot.knowsAction(action, this.base.budget.start()))
    ) {
      throw new AppError(404, 'unknown_action_type', `No rule of this tenant applies to action_type ${action}`, { action_type: action });
    }
    const correlation = (body.correlation ?? session?.correlation ?? null) as Record<string, unknown> | null;
    const parameters = EMPTY;
    // Fixed before anything is consumed in a window in its name (docs/verdicts.md "Windows and outcomes"), or sealed under it.
    const consultationId = newTimeOrderedId('cns-', now);
    // Tenants without sensitive fields await nothing here (the hot path stays synchronous up to the record).
    const shielded = snapshot.sensitive ? await shield(this.deps, snapshot, parameters, context, consultationId) : null;
    const recordedContext = shielded?.context ?? context;
    const hash = contextHash({ action, resource, scope, parameters, context: recordedContext });
    const requestedAt = new Date(now);
    const request: EvaluationRequest = {
      mode: 'resolve',
      action,
      resource,
      scope,
      context: engineContext(context, citations),
      ...keyPrincipals(identity, body.on_behalf_of),
      windowKeyValue: snapshot.sensitive ? await windowKeyValue(this.deps, snapshot) : undefined,
    };
    const evaluated = evaluateOperation(this.deps, this.base, 'resolve', snapshot, request, requestedAt, consultationId);
    const windows = evaluated instanceof Promise ? await evaluated : evaluated;
    const result = windows.result;

    if (result.status === 'incomplete') {
      const history = [...(session?.history ?? []), { round, fields: result.required_context.map((f) => f.field) }];
      const id = await this.saveRound(
        identity,
        tenantId,
        body,
        session,
        { action, resource, scope, context, round, history, correlation },
        shielded,
        now,
      );
      const required = presentRequirements(result.required_context);
      const answer: IncompleteResolveResponse | OverviewIncompleteResponse =
        body.variant === 'detailed'
          ? {
              operation_status: 'incomplete',
              resolve_session_id: id,
              round,
              required_context: required,
              provisional_context: committedProvisional(result.provisional_context, context, shielded),
            }
          : { operation_status: 'incomplete', required_context: required, resolve_session_id: id };
      return { body: answer };
    }
    if (result.status !== 'complete') throw new Error(`resolve evaluation answered ${result.status}`);

    const history = [...(session?.history ?? []), { round, fields: [] }];
    // Only when this round asks (docs/verdicts.md "Explanations").
    // Past the budget, or unrecorded, the round gives back what it consumed in its windows.
    const giveBack = () => (windows.consumed ? this.deps.windows?.giveBack(tenantId, consultationId) : undefined);
    let explanation = null;
    if (body.explain) {
      try {
        explanation = this.base.budget.run('resolve', tenantId, () =>
          explain(snapshot.policy, request, result, requestedAt, this.base.budget.start(), windows.states),
        );
      } catch (err) {
        await giveBack();
        throw err;
      }
    }
    // The round that completes a session claims it first (one conditional update: of two rounds racing, one
    // completes it and the other answers 409 resolve_session_conflict, having consumed nothing), then records.
    if (session) {
      const claimed = await this.deps.sessions.advance(tenantId, session.id, session.rounds, {
        scope: scope as ResolveSessionState['scope'],
        ...this.keptContext(tenantId, session.id, context, shielded),
        rounds: round,
        history,
        correlation,
        expires_at: session.expires_at,
        consultation_id: consultationId,
      });
      if (!claimed) {
        await giveBack();
        throw sessionConflict(session.id);
      }
    }
    const record = await this.deps.recorder
      .record({
        consultationId,
        limits: windows.limits,
        operation: 'resolve',
        identity,
        snapshot,
        onBehalfOf: body.on_behalf_of,
        requestedAt,
        action,
        resource,
        scope,
        parameters,
        context: recordedContext,
        sealedValues: shielded?.sealed ?? null,
        contextHash: hash,
        ledgerCitations: citations,
        evaluation: result,
        ttlSeconds: appliedTtl(ttlOverride, snapshot),
        history,
        correlation,
      })
      .catch(async (err: unknown) => {
        await giveBack();
        // Not recorded: the session is open again at the round before, for the caller to retry.
        if (session) await this.deps.sessions.reopen(tenantId, session.id, consultationId, session.rounds);
        throw err;
      });
    const answer = body.variant === 'detailed' ? presentResolveComplete(record, explanation) : presentOverviewComplete(record, explanation);
    return { body: answer, ttlSeconds: record.verdict_ttl_seconds, consultationId: record.id };
  }

  private async openSession(
    identity: AuthenticatedIdentity,
    tenantId: TenantId,
    body: ParsedResolve,
    now: number,
  ): Promise<ResolveSessionState> {
    const id = body.resolve_session_id!;
    const session = await this.deps.sessions.find(tenantId, id);
    // Another caller's session answers as an unknown one: session ids are not shared between principals.
    if (!session || session.caller_principal_id !== identity.principal.id || session.expires_at.getTime() <= now) {
      throw new AppError(404, 'resolve_session_not_found', `Resolve session ${shownId(id)} does not exist or has expired`, {
        resolve_session_id: shownId(id),
      });
    }
    if (session.completed_at) {
      throw new AppError(409, 'resolve_session_completed', `Resolve session ${id} is complete; start a new one`, {
        resolve_session_id: id,
        consultation_id: session.consultation_id,
      });
    }
    const sameOperation =
      session.variant === body.variant &&
      (body.variant === 'detailed'
        ? session.action === body.action && session.resource === body.resource
        : session.action === body.action_type && !namesAnotherResource(body.context, session.resource));
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
    throw new AppError(
      422,
      'resolve_context_too_large',
      `The accumulated context of resolve session ${sessionId} would weigh ${size} bytes, more than the ${max} one request may carry: start a new session with the fields that matter`,
      {
        resolve_session_id: sessionId,
        bytes: size,
        max_bytes: max,
      },
    );
  }

  /** The session's sensitive Facts, decrypted; none once an erasure of their subject removed them. */
  private async sessionFacts(session: ResolveSessionState): Promise<Record<string, Fact>> {
    if (!session.sealed_values || !this.deps.sensitive) return {};
    return this.deps.sensitive.openSessionFacts(session.tenant_id as TenantId, session.id, session.sealed_values);
  }

  /**
   * What a session stores of its accumulated context: the Facts without a sensitive value in `context`, those with
   * one (the Facts the shield replaced) encrypted in `sealed_values` (docs/verdicts.md "Sensitive fields").
   */
  private keptContext(
    tenantId: TenantId,
    sessionId: string,
    context: Record<string, Fact>,
    shielded: Shielded | null,
  ): { context: Record<string, Fact>; sealed_values: SealedSessionFacts | null } {
    if (!shielded || !this.deps.sensitive) return { context, sealed_values: null };
    const kept: Record<string, Fact> = {};
    const sensitive: Record<string, Fact> = {};
    for (const [key, fact] of Object.entries(context)) (shielded.context[key] === fact ? kept : sensitive)[key] = fact;
    if (Object.keys(sensitive).length === 0) return { context, sealed_values: null };
    return {
      context: kept,
      sealed_values: this.deps.sensitive.sealSessionFacts(tenantId, sessionId, shielded, sensitive),
    };
  }

  /** Stores an incomplete round: a new session, or the next round of the caller's one. */
  private async saveRound(
    identity: AuthenticatedIdentity,
    tenantId: TenantId,
    body: ParsedResolve,
    session: ResolveSessionState | null,
    next: {
      action: string;
      resource: string;
      scope: Scope;
      context: Record<string, Fact>;
      round: number;
      history: RequiredContextRound[];
      correlation: Record<string, unknown> | null;
    },
    shielded: Shielded | null,
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
        ...this.keptContext(tenantId, id, next.context, shielded),
        rounds: next.round,
        history: next.history,
        correlation: next.correlation,
        expires_at,
      });
      return id;
    }
    const ok = await this.deps.sessions.advance(tenantId, session.id, session.rounds, {
      scope,
      ...this.keptContext(tenantId, session.id, next.context, shielded),
      rounds: next.round,
      history: next.history,
      correlation: next.correlation,
      expires_at,
    });
    if (!ok) throw sessionConflict(session.id);
    return session.id;
  }
}

/** 409: another call advanced or completed the session since this one read it. */
function sessionConflict(sessionId: string): AppError {
  return new AppError(
    409,
    'resolve_session_conflict',
    `Another call advanced resolve session ${sessionId} meanwhile; retry with the current context`,
    {
      resolve_session_id: sessionId,
    },
  );
}

/** Overview resolve names no resource: a `resource` Fact supplies it (else the session's, else ''). */
/**
 * Whether an overview round's `resource` Fact names another resource than the session's (docs/verdicts.md "The resolve
 * loop": another resource is 409 resolve_session_mismatch, in the overview variant too). A session without one yet
 * takes the first.
 */
function namesAnotherResource(context: Record<string, Fact>, held: string): boolean {
  const fact = Object.prototype.hasOwnProperty.call(context, 'resource') ? context.resource : undefined;
  return held !== '' && fact !== undefined && typeof fact.value === 'string' && fact.value !== held;
}

function overviewResource(context: Record<string, Fact>, session: ResolveSessionState | null): string {
  const fact = context.resource;
  if (fact && typeof fact.value === 'string') return fact.value;
  return session?.resource ?? '';
}

/**
 * The Facts known so far as an incomplete round answers them: a sensitive one by its commitment, never its plain
 * value (this round's or one decrypted from the session); the rules saw the plain values (docs/verdicts.md
 * "Sensitive fields").
 */
function committedProvisional(
  provisional: Record<string, unknown>,
  context: Record<string, Fact>,
  shielded: Shielded | null,
): Record<string, unknown> {
  if (!shielded) return provisional;
  // The shield copies only the Facts it changed: any other is the very object the round carried.
  const committed = (key: string) => Object.prototype.hasOwnProperty.call(shielded.context, key) && shielded.context[key] !== context[key];
  return Object.fromEntries(Object.entries(provisional).map(([key, value]) => [key, committed(key) ? shielded.context[key].value : value]));
}
