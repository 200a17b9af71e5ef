import type { Logger } from 'pino';
import type { AuthenticatedIdentity, TenantId } from '@arbiter/auth';
import { AppError } from '@arbiter/http';
import { newTimeOrderedId } from '@arbiter/db';
import { inSpan, tracingEnabled } from '@arbiter/telemetry';
import {
  evaluate,
  explain,
  factContradictingParameters,
  feedsMisnamedField,
  windowPlan,
  type CompiledPolicy,
  type CompleteEvaluation,
  type EvaluationRequest,
  type Explanation,
  type Fact,
  type OneShotApproval,
} from '@arbiter/policy';
import type { ConsultationRecord } from '../domain/consultation-record';
import { contextHash } from '../domain/consultation-builder';
import { appliedTtl, EMPTY, type Answer } from '../domain/evaluation-answer';
import { engineContext } from '../domain/ledger-citation';
import type { TenantSnapshot } from '../domain/tenant-snapshot';
import { parseCheckBody, parseVerdictTtl, validateScope } from '../domain/request-parsing';
import type { CheckResponse } from '../models/verdicts';
import { presentCheck, presentRequirements } from '../presenters/verdicts';
import type { ConsultationRecorder, Decision } from './consultation-recorder.service';
import { EvaluationBudget } from './evaluation-budget.service';
import { LedgerCitationsService, unconfiguredCitationSource } from './ledger-citations.service';
import type { SensitiveValuesService, Shielded } from './sensitive-values.service';
import type { SnapshotStore } from './snapshot-store.service';
import type { WindowDecision, WindowsService } from './windows.service';

/** The one-shot approvals a check may use (repositories/approvals.repository.ts). */
export interface OneShotApprovals {
  /**
   * An unconsumed one-shot approval of `requester` whose consultation acted for `actingFor` (its on_behalf_of, else
   * the caller) and had this context_hash, with the rule versions it lifts by rule id.
   */
  findOneShot(
    tenantId: TenantId,
    requester: string,
    actingFor: string,
    contextHash: string,
    now: Date,
  ): Promise<{ id: string; rule_versions: Record<string, string> } | null>;
  consumeOneShot(tenantId: TenantId, id: string, consultationId: string, at: Date): Promise<boolean>;
  releaseOneShot(tenantId: TenantId, id: string, consultationId: string): Promise<void>;
}

/** What check and resolve both need. */
export interface EvaluationDeps {
  snapshots: SnapshotStore;
  recorder: ConsultationRecorder;
  logger: Logger;
  /** Verifies ledger citations (docs/verdicts.md "Facts the ledger vouches for"). Absent: a citation is 503 ledger_unavailable. */
  citations?: LedgerCitationsService;
  /** docs/verdicts.md "Evaluation budget" (EVALUATION_BUDGET_MS); absent: the defaults. */
  budget?: EvaluationBudget;
  /** docs/verdicts.md "Windows and outcomes": absent, a rule that remembers always fires (limit_unavailable). */
  windows?: WindowsService;
  /** docs/verdicts.md "Sensitive fields": absent, a tenant that lists sensitive fields cannot be checked (fail closed). */
  sensitive?: SensitiveValuesService;
  now?: () => number;
}

/** EvaluationDeps' optional members, with their defaults. */
export interface EvaluationBase {
  now: () => number;
  citations: LedgerCitationsService;
  budget: EvaluationBudget;
}

/** The `principal` and `on_behalf_of` key paths of the rules that remember (docs/verdicts.md "Budgets, rates and sequences"). */
export function keyPrincipals(
  identity: AuthenticatedIdentity,
  onBehalfOf: string | undefined,
): Pick<EvaluationRequest, 'principal' | 'on_behalf_of'> {
  return { principal: identity.principal.id, on_behalf_of: onBehalfOf ?? null };
}

/**
 * One evaluation of check or resolve in its budget (docs/verdicts.md "Evaluation budget"), through the
 * windows of the rules that remember when the policy has any (docs/verdicts.md "Windows and outcomes"):
 * then the plan, the window store and the consumption for `consultationId`. Without such rules (the
 * common case) it is the engine alone, synchronously, with nothing awaited.
 */
export function evaluateOperation(
  deps: EvaluationDeps,
  base: EvaluationBase,
  operation: 'check' | 'resolve',
  snapshot: TenantSnapshot,
  request: EvaluationRequest,
  requestedAt: Date,
  consultationId: string,
  approval: OneShotApproval | null = null,
): WindowDecision | Promise<WindowDecision> {
  const { policy, tenantId } = snapshot;
  const budget = base.budget;
  if (!policy.hasWindows || !deps.windows) {
    const result = budget.run(operation, tenantId, () => evaluate(policy, request, requestedAt, approval, budget.start()));
    return { result, limits: [], states: null, consumed: false };
  }
  const plan = budget.run(operation, tenantId, () => windowPlan(policy, request, requestedAt, approval, budget.start()));
  return deps.windows.decide(tenantId, consultationId, policy, plan, (states) =>
    budget.run(operation, tenantId, () => evaluate(policy, request, requestedAt, approval, budget.start(), states)),
  );
}

/**
 * The request's sensitive values committed (docs/verdicts.md "Sensitive fields"), or null when the tenant lists none
 * or the request carries none. A tenant that lists some, on a gateway without the service, is refused (fail closed).
 */
export async function shield(
  deps: EvaluationDeps,
  snapshot: TenantSnapshot,
  parameters: Record<string, unknown>,
  context: Record<string, Fact>,
  rowId: string,
): Promise<Shielded | null> {
  if (!snapshot.sensitive) return null;
  if (!deps.sensitive) throw new Error('sensitive fields are set but the gateway has no sensitive values service');
  return deps.sensitive.shield(snapshot.tenantId, snapshot.sensitive, parameters, context, rowId);
}

/** The engine's window-key hook of a tenant with sensitive fields and rules that remember; undefined otherwise. */
export async function windowKeyValue(deps: EvaluationDeps, snapshot: TenantSnapshot): Promise<EvaluationRequest['windowKeyValue']> {
  if (!snapshot.sensitive || !snapshot.policy.hasWindows) return undefined;
  if (!deps.sensitive) throw new Error('sensitive fields are set but the gateway has no sensitive values service');
  return deps.sensitive.windowKeyValue(snapshot.tenantId, snapshot.sensitive);
}

export function evaluationDefaults(deps: EvaluationDeps): EvaluationBase {
  return {
    now: deps.now ?? Date.now,
    citations: deps.citations ?? new LedgerCitationsService(unconfiguredCitationSource),
    budget: deps.budget ?? new EvaluationBudget(),
  };
}

export interface CheckDeps extends EvaluationDeps {
  /** Absent: no check ever uses a one-shot approval (unit tests of other paths). */
  oneShots?: OneShotApprovals;
}

type OneShot = NonNullable<Decision['oneShot']>;

/**
 * The check orchestration (docs/verdicts.md "check"): the body parsed once, the operation evaluated
 * against the tenant snapshot in memory, a one-shot approval used when one covers it, the explanation
 * computed when asked, then the consultation recorded (ConsultationRecorder) before the answer leaves.
 */
export class CheckService {
  private readonly base: EvaluationBase;

  constructor(private readonly deps: CheckDeps) {
    this.base = evaluationDefaults(deps);
  }

  /**
   * POST /<tenant_id>/v1/check, from the fast lane and the tsoa route alike (CheckController.check): the
   * raw body is parsed and validated here, once. While tracing is on, in a `verdict.check` span.
   */
  check(
    identity: AuthenticatedIdentity,
    tenantParam: string,
    rawBody: unknown,
    ttlHeader: string | string[] | undefined,
  ): Promise<Answer<CheckResponse>> {
    return traced('verdict.check', identity, () => this.run(identity, tenantParam, rawBody, ttlHeader));
  }

  private async run(
    identity: AuthenticatedIdentity,
    tenantParam: string,
    rawBody: unknown,
    ttlHeader: string | string[] | undefined,
  ): Promise<Answer<CheckResponse>> {
    const body = parseCheckBody(rawBody);
    const ttlOverride = parseVerdictTtl(ttlHeader);
    const snapshot = await this.deps.snapshots.forCaller(identity, tenantParam);
    const scope = validateScope(body.scope, snapshot.scopeFields, 'invalid_scope_field');
    // The Facts as sent are hashed and recorded; the engine sees verified ledger citations as ledger Facts.
    const context = (body.context as Record<string, Fact> | undefined) ?? EMPTY;
    const parameters = body.parameters ?? EMPTY;
    refuseParametersMember(snapshot.policy, parameters);
    refuseContradictingFacts(parameters, context);
    const citations = await this.base.citations.verify(
      snapshot.tenantId,
      context,
      { principalId: identity.principal.id, onBehalfOf: body.on_behalf_of },
      parameters,
    );
    // Fixed before anything is consumed in a window or a one-shot approval in its name, or sealed under it.
    const consultationId = newTimeOrderedId('cns-', this.base.now());
    // The rules see the plain values; what is hashed, signed, stored and answered holds their commitments.
    // Tenants without sensitive fields await nothing here (the hot path stays synchronous up to the record).
    const shielded = snapshot.sensitive ? await shield(this.deps, snapshot, parameters, context, consultationId) : null;
    const recorded = { parameters: shielded?.parameters ?? parameters, context: shielded?.context ?? context };
    const hash = contextHash({ action: body.action, resource: body.resource, scope, ...recorded });
    const requestedAt = new Date(this.base.now());
    const request = {
      mode: 'check' as const,
      action: body.action,
      resource: body.resource,
      scope,
      parameters,
      context: engineContext(context, citations),
      ...keyPrincipals(identity, body.on_behalf_of),
      windowKeyValue: snapshot.sensitive ? await windowKeyValue(this.deps, snapshot) : undefined,
    };
    // Each synchronous run of the engine gets its own budget (docs/verdicts.md "Evaluation budget").
    const evaluated = evaluateOperation(this.deps, this.base, 'check', snapshot, request, requestedAt, consultationId);
    let windows = evaluated instanceof Promise ? await evaluated : evaluated;
    let result = windows.result;
    if (result.status === 'insufficient_context') {
      throw new AppError(
        422,
        'insufficient_context',
        `A rule needs context the request lacks: ${result.missing_fields.map((f) => f.field).join(', ')} (resolve is the tolerant alternative)`,
        {
          missing_fields: result.missing_fields.map((f) => f.field),
          required_context: presentRequirements(result.missing_fields),
        },
      );
    }
    if (result.status !== 'complete') throw new Error(`check evaluation answered ${result.status}`);
    let oneShot: OneShot | undefined;
    if (result.verdict === 'approval_required' && this.deps.oneShots) {
      const actingFor = body.on_behalf_of ?? identity.principal.id;
      const used = await this.useOneShotApproval(identity, actingFor, snapshot, request, hash.digest, result, requestedAt, consultationId);
      if (used) ({ result, oneShot, windows } = used);
    }
    // Only when asked, for blocked and approval_required (explain answers null otherwise): docs/verdicts.md "Explanations".
    let explanation: Explanation | null = null;
    if (body.explain) {
      try {
        explanation = explain(snapshot.policy, request, result, requestedAt, this.base.budget.start(), windows.states);
      } catch (err) {
        // Past the budget nothing is recorded: a one-shot approval this check used, and its windows, are given back.
        await this.giveBack(snapshot, oneShot, windows, consultationId);
        throw this.base.budget.refusal('check', snapshot.tenantId, err);
      }
    }
    const record = await this.record({
      consultationId,
      limits: windows.limits,
      windowsConsumed: windows.consumed,
      oneShot,
      operation: 'check',
      identity,
      snapshot,
      onBehalfOf: body.on_behalf_of,
      requestedAt,
      action: body.action,
      resource: body.resource,
      scope,
      ...recorded,
      sealedValues: shielded?.sealed ?? null,
      contextHash: hash,
      ledgerCitations: citations,
      evaluation: result,
      ttlSeconds: appliedTtl(ttlOverride, snapshot),
      history: [],
      correlation: null,
    });
    return { body: presentCheck(record, explanation), ttlSeconds: record.verdict_ttl_seconds, consultationId: record.id };
  }

  /** Records the consultation; one that consumed a one-shot approval or windows and was not stored gives them back. */
  private async record(d: Decision & { windowsConsumed: boolean }): Promise<ConsultationRecord> {
    try {
      return await this.deps.recorder.record(d);
    } catch (err) {
      await this.giveBack(d.snapshot, d.oneShot, { consumed: d.windowsConsumed }, d.consultationId!);
      throw err;
    }
  }

  /** What a check that is not recorded consumed goes back: its one-shot approval, its windows (best effort). */
  private async giveBack(
    snapshot: TenantSnapshot,
    oneShot: OneShot | undefined,
    windows: Pick<WindowDecision, 'consumed'>,
    consultationId: string,
  ): Promise<void> {
    if (oneShot) await this.releaseOneShot(snapshot, oneShot);
    if (windows.consumed) await this.deps.windows?.giveBack(snapshot.tenantId, consultationId);
  }

  /**
   * An approval_required check may be the operation an approval approved without a grant
   * (docs/approvals.md "The agent's loop"): same caller acting for the same principal (its on_behalf_of, else
   * itself: whoever the approval's consultation acted for, whom the four-eyes rule kept from deciding it), same
   * context_hash (the operation and its context Facts, ledger citations included), still valid, unused. Its triggering rules, at the versions it was
   * asked for, are then neutralised for this one evaluation, and the approval is consumed by one
   * conditional UPDATE, so of two simultaneous checks exactly one is allowed. New triggers (rules the
   * approval did not cover, or changed since) keep the verdict approval_required and leave it unused.
   */
  private async useOneShotApproval(
    identity: AuthenticatedIdentity,
    actingFor: string,
    snapshot: TenantSnapshot,
    request: EvaluationRequest,
    contextHash: string,
    result: CompleteEvaluation,
    requestedAt: Date,
    consultationId: string,
  ): Promise<{ result: CompleteEvaluation; oneShot: OneShot; windows: WindowDecision } | null> {
    const oneShots = this.deps.oneShots!;
    const approval = await oneShots.findOneShot(snapshot.tenantId, identity.principal.id, actingFor, contextHash, requestedAt);
    if (!approval) return null;
    const versions = approval.rule_versions;
    if (!result.triggers.length || !result.triggers.every((t) => versions[t.rule_id] === t.rule_version_id)) return null;
    const lifted = { approvalId: approval.id, ruleVersionIds: new Set(Object.values(versions)) };
    // The lifted rules leave the window plan: they consume nothing (docs/verdicts.md "Windows and outcomes").
    const evaluated = evaluateOperation(this.deps, this.base, 'check', snapshot, request, requestedAt, consultationId, lifted);
    const windows = evaluated instanceof Promise ? await evaluated : evaluated;
    const again = windows.result;
    if (again.status !== 'complete' || again.verdict === 'approval_required') {
      await this.giveBack(snapshot, undefined, windows, consultationId);
      return null;
    }
    if (!(await oneShots.consumeOneShot(snapshot.tenantId, approval.id, consultationId, requestedAt))) {
      await this.giveBack(snapshot, undefined, windows, consultationId);
      return null;
    }
    return { result: again, oneShot: { approvalId: approval.id, consultationId }, windows };
  }

  private async releaseOneShot(snapshot: TenantSnapshot, oneShot: OneShot): Promise<void> {
    await this.deps.oneShots
      ?.releaseOneShot(snapshot.tenantId, oneShot.approvalId, oneShot.consultationId)
      .catch((releaseErr: unknown) =>
        this.deps.logger.error({ err: releaseErr, approval_id: oneShot.approvalId }, 'one-shot approval not released'),
      );
  }
}

/**
 * An evaluation in its span (docs/operations.md "Tracing"): the caller's tenant and principal, then the
 * verdict and the consultation id of a complete answer (`arbiter.operation_status` of an incomplete one).
 * Check and resolve alike; with tracing off, just `run`.
 */
export function traced<T>(name: string, identity: AuthenticatedIdentity, run: () => Promise<Answer<T>>): Promise<Answer<T>> {
  if (!tracingEnabled()) return run();
  return inSpan(
    name,
    { attributes: { 'arbiter.tenant_id': identity.tenant_id, 'arbiter.principal_id': identity.principal.id } },
    async (span) => {
      const answer = await run();
      const body = answer.body as { verdict?: unknown; operation_status?: unknown };
      if (answer.consultationId) span.setAttribute('arbiter.consultation_id', answer.consultationId);
      if (typeof body.verdict === 'string') span.setAttribute('arbiter.verdict', body.verdict);
      if (typeof body.operation_status === 'string') span.setAttribute('arbiter.operation_status', body.operation_status);
      return answer;
    },
  );
}

/**
 * A parameter member named `parameters`, while the tenant's rules or overrides read a field named `parameters.<path>`
 * (docs/verdicts.md "Parameters and context"): such a field names a parameter the wrong way, and the member would
 * stand in for the parameter it meant (the rule reads 1, the verdict signs 50,000). 400 validation_failed.
 */
function refuseParametersMember(policy: CompiledPolicy, parameters: Record<string, unknown>): void {
  if (!feedsMisnamedField(policy, parameters)) return;
  throw new AppError(
    400,
    'validation_failed',
    "parameters.parameters: this tenant's rules read a field named parameters.<path>, which would read this member " +
      'instead of the parameter it names; rename the member (or have the rule name the parameter by its path alone)',
    { field: 'parameters.parameters' },
  );
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
  throw new AppError(
    422,
    'context_contradicts_parameters',
    `Context field ${field} holds another value than parameters.${field}: a Fact cannot restate what the parameters say (send one value, or leave the Fact out)`,
    {
      field: `context.${field}`,
      parameters_field: `parameters.${field}`,
    },
  );
}
