import type { AuthenticatedIdentity, TenantId } from '@arbiter/auth';
import { approvalSealRow, isUniqueViolation, newId } from '@arbiter/db';
import { canonicalJson } from '@arbiter/canonical';
import { AppError, shownId } from '@arbiter/http';
import type { Logger } from 'pino';
import type { PoolClient } from 'pg';
import { badRequest, crossTenantForbidden } from '../domain/errors';
import { ownTenant, requireAnyPermission } from '../domain/tenant-access';
import type { Approval, ApprovalList, CreateApprovalBody, DecisionBody } from '../models/approvals';
import type { ConsultationsService } from './consultations.service';
import type { SnapshotStore } from './snapshot-store.service';
import type { RuleVersionsService, ScopedVersion } from './rule-versions.service';
import { parseApprovalQuery, type ApprovalQuery } from '../domain/approval-query';
import { timeKeysetCursor } from '../domain/pagination';
import {
  approvalAt,
  approvalExpired,
  askingPrincipals,
  checkGrant,
  checkRequester,
  decided,
  deciderAsStateSees,
  isValidDecider,
  newApproval,
  quorumReached,
  triggersOf,
  scopesNotCovered,
  withApproval,
} from '../domain/approval-rules';
import {
  approvalTerms,
  rulesAwaitingApproval,
  rulesCountedFor,
  triggerTerms,
  type ApprovalFields,
  type TriggerTerms,
  type TriggerVersion,
} from '@arbiter/policy';
import type { ApprovalRepository } from '../repositories/approvals.repository';
import { RegistryRejectedError, RegistryUnavailableError, type OverrideState, type RegistryInternalClient } from '@arbiter/internal-api';

/** What scopes an approval (or the consultation it is asked for) lies in: its triggering rules'. */
type Triggered = { triggers: readonly { rule_version_id: string }[] };

/** A triggering rule's version as the decision reads it: its approval fields, deciders and scope. */

/** 422 invalid_grant: a grant on an approval that does not complete the quorum (`given`: with this approval). */
const quorumGrantRefused = (given: Approval, awaiting: string[]) =>
  new AppError(
    422,
    'invalid_grant',
    `A grant is given by the approval that completes the quorum: after this one, approval ${given.id} still waits for approvals of ${awaiting.join(', ')}; approve without a grant`,
    { field: 'grant', approvals_required: given.approvals_required, approvals: given.approvals.length, rules_awaiting: awaiting },
  );

/** 403 not_a_valid_decider: a candidate decider whose approval counts for none of the triggering rules (yet). */
const countsForNoRule = (approval: Approval) =>
  new AppError(
    403,
    'not_a_valid_decider',
    'The caller approves for none of the triggering rules: each rule is approved by its own deciders (or, from its own escalation time, its escalation deciders)',
    { candidate_deciders: approval.candidate_deciders, triggers: approval.triggers.map((t) => t.rule_id) },
  );

const approvalNotFound = (id: string) =>
  new AppError(404, 'approval_not_found', `Approval ${shownId(id)} does not exist in this tenant`, { approval_id: shownId(id) });

/** The outbox idempotency key of an approval event (docs/webhooks.md: `<approval_id>:requested|resolved`). */
export const eventKey = (approvalId: string, what: 'requested' | 'resolved') => `${approvalId}:${what}`;

/**
 * Verdict approvals. Permissions (docs/approvals.md): `check` to request (the caller that got
 * approval_required), `approve` to decide, `read`, `check` or `approve` to read.
 */
export class ApprovalsService {
  constructor(
    private readonly deps: {
      approvals: ApprovalRepository;
      /**
       * Where a consultation is, PostgreSQL or its archive (docs/operations.md "Archive"): an approval may be asked for,
       * and decided, after the consultation's partition has left.
       */
      consultations: Pick<ConsultationsService, 'find'>;
      registry: RegistryInternalClient;
      snapshots: SnapshotStore;
      /** The triggering rule versions (snapshot first, then the registry, cached). */
      versions: Pick<RuleVersionsService, 'scopedVersions'>;
      logger: Logger;
      /** Called after a committed change so the outbox relay runs at once instead of at its next tick. */
      onEnqueued?: () => void;
      /** How long an approval approved without a grant allows its operation (APPROVAL_VALIDITY_SECONDS). */
      validitySeconds: number;
      /** The longest a grant's override may live after the decision (APPROVAL_GRANT_TTL_SECONDS). */
      grantTtlSeconds: number;
      /** Called after a decision committed (the check's list of one-shot approvals is read again). */
      onDecided?: (tenantId: string) => void;
      /** LEDGER_SEALING: each decision writes its seal_outbox row (default true). */
      sealing?: boolean;
      /** APPROVAL_TTL_SECONDS: when no triggering rule sets approval_expires_after, a pending approval expires this long after its request. */
      ttlSeconds: number;
    },
  ) {}

  /** The approval as the API answers it now (defaults of older rows, `expired` computed on read). */
  private present(stored: Approval, now = new Date()): Approval {
    return approvalAt(stored, now, this.deps.ttlSeconds);
  }

  async create(identity: AuthenticatedIdentity, tenantParam: string, body: CreateApprovalBody): Promise<Approval> {
    requireAnyPermission(identity, ['check']);
    const tenantId = ownTenant(identity, tenantParam);
    const found = await this.deps.consultations.find(tenantId, body.consultation_id);
    if (!found)
      throw new AppError(404, 'consultation_not_found', `Consultation ${shownId(body.consultation_id)} does not exist in this tenant`, {
        consultation_id: shownId(body.consultation_id),
      });
    if (found.tenant_id !== tenantId) throw crossTenantForbidden('The consultation belongs to another tenant');
    const record = found.record;
    checkRequester(record, identity.principal.id);
    // A key restricted to some scopes asks only for approvals its scopes govern, as it reads and decides them.
    if (!(await this.reaches(identity, tenantId, { triggers: record.triggers ?? [] })))
      throw new AppError(404, 'consultation_not_found', `Consultation ${shownId(body.consultation_id)} does not exist in this tenant`, {
        consultation_id: shownId(body.consultation_id),
      });
    if (record.verdict !== 'approval_required') {
      throw badRequest('consultation_not_approval_required', `The consultation verdict was ${record.verdict}, not approval_required`, {
        consultation_id: record.id,
        verdict: record.verdict,
      });
    }
    const now = new Date();
    const terms = approvalTerms(await this.triggerFields(tenantId, triggersOf(record)), now, this.deps.ttlSeconds);
    const approval = newApproval({ id: newId('apr-'), record, notes: body.requester_notes, now, terms });
    try {
      await this.deps.approvals.transaction(async (tx) => {
        // The one-shot binding: the consultation's context_hash covers the operation and its context Facts.
        await this.deps.approvals.insert(tx, tenantId, approval, record.context_hash);
        await this.deps.approvals.enqueue(tx, tenantId, eventKey(approval.id, 'requested'), {
          type: 'approval.requested',
          entity_type: 'approval',
          entity_id: approval.id,
          actor_id: approval.requester,
          data: approval,
        });
      });
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      // One approval per consultation: a repeated request points at the first one.
      const existing = await this.deps.approvals.findByConsultation(tenantId, record.id);
      throw new AppError(409, 'approval_exists', `Consultation ${record.id} already has approval ${existing?.id ?? ''}`.trim(), {
        approval_id: existing?.id ?? null,
        consultation_id: record.id,
      });
    }
    this.deps.onEnqueued?.();
    return approval;
  }

  async get(identity: AuthenticatedIdentity, tenantParam: string, id: string): Promise<Approval> {
    requireAnyPermission(identity, ['read', 'check', 'approve']);
    const tenantId = ownTenant(identity, tenantParam);
    const found = await this.deps.approvals.findAnyTenant(id);
    if (!found) throw approvalNotFound(id);
    if (found.tenant_id !== tenantId) throw crossTenantForbidden('The approval belongs to another tenant');
    if (!(await this.reaches(identity, tenantId, found.body))) throw approvalNotFound(id);
    return this.present(found.body);
  }

  /**
   * Whether a key reaches an approval (docs/verdicts.md "Authentication"): every key valid for all scopes does; a key
   * restricted by `scope_ids` only when the triggering rules all lie in its scopes, as for deciding it.
   */
  private async reaches(identity: AuthenticatedIdentity, tenantId: TenantId, approval: Triggered): Promise<boolean> {
    if (identity.scope_ids.length === 0) return true;
    return uncoveredScopes(identity, approval, await this.triggerVersions(tenantId, approval.triggers, 'read it again')).length === 0;
  }

  /**
   * Internal (the registry's approval notifications, docs/approvals.md "Notifications"): an approval's status,
   * within its tenant; another tenant's approval is not found.
   */
  async statusOf(tenantId: TenantId, id: string): Promise<{ id: string; status: Approval['status'] }> {
    const found = await this.deps.approvals.findAnyTenant(id);
    if (!found || found.tenant_id !== tenantId) throw approvalNotFound(id);
    return { id, status: found.body.status };
  }

  async list(identity: AuthenticatedIdentity, tenantParam: string, query: ApprovalQuery): Promise<ApprovalList> {
    requireAnyPermission(identity, ['read', 'check', 'approve']);
    const tenantId = ownTenant(identity, tenantParam);
    const { filter, limit, after } = parseApprovalQuery(query);
    const now = new Date();
    const rows = await this.deps.approvals.list(tenantId, filter, limit, { now, ttlSeconds: this.deps.ttlSeconds }, after);
    const items = rows.slice(0, limit).map((a) => this.present(a, now));
    const next_cursor = rows.length > limit ? timeKeysetCursor(items[items.length - 1]) : null;
    if (identity.scope_ids.length === 0) return { items, next_cursor };
    // A key restricted to some scopes sees the page without the approvals it does not reach (the page may be short).
    const reached = await Promise.all(items.map((a) => this.reaches(identity, tenantId, a)));
    return { items: items.filter((_, i) => reached[i]), next_cursor };
  }

  /**
   * Decides once. The approval row stays locked from the read to the commit, so a concurrent
   * decider waits and then gets 409 already_decided. With a grant the registry creates the override
   * while the lock is held: when the registry is unreachable nothing is recorded (503, the approval
   * stays pending and the decision can be sent again); an override whose answer was lost is found
   * again by its approval_id on that retry instead of being made twice.
   */
  async decide(identity: AuthenticatedIdentity, tenantParam: string, id: string, body: DecisionBody): Promise<Approval> {
    requireAnyPermission(identity, ['approve']);
    const tenantId = ownTenant(identity, tenantParam);
    // The tenant's state is fresher than the 30 s key cache (its poll catches a change within seconds even without
    // Redis): a decider it shows deactivated is refused (403 principal_deactivated), and a role counts only while
    // both the key's identity and the state hold it.
    const decider = deciderAsStateSees(identity.principal, (await this.deps.snapshots.forCaller(identity, tenantParam)).principals);
    // Who asked and where the triggering rules live never change: read them before the row is locked.
    const seen = await this.deps.approvals.findAnyTenant(id);
    if (!seen) throw approvalNotFound(id);
    if (seen.tenant_id !== tenantId) throw crossTenantForbidden('The approval belongs to another tenant');
    const consultation = await this.deps.consultations.find(tenantId, seen.body.consultation_id);
    const asking = askingPrincipals(seen.body, consultation?.tenant_id === tenantId ? consultation.record : null);
    // The triggering rules' (immutable) versions, read before the lock too: each one's own deciders and quorum
    // for an approval, their scopes for a key restricted to some.
    const versions =
      body.decision === 'approve' || identity.scope_ids.length > 0
        ? await this.triggerVersions(tenantId, seen.body.triggers, 'send the decision again')
        : [];
    const terms = body.decision === 'approve' ? this.triggerTermsOf(seen.body, versions) : [];
    type Outcome = { expired: Approval } | { approval: Approval; decided: boolean };
    const result = await this.deps.approvals.transaction(async (tx): Promise<Outcome> => {
      const found = await this.deps.approvals.lockAnyTenant(tx, id);
      if (!found || found.tenant_id !== tenantId) throw approvalNotFound(id);
      // The decision's instant is taken under the lock: a decision that waited for it (or for the reads above)
      // past expires_at is too late (docs/approvals.md "Quorum, escalation and expiry").
      const now = new Date();
      const approval = this.present(found.body, now);
      if (approval.status === 'expired') {
        // Stored when first touched after expires_at (docs/approvals.md "Quorum, escalation and expiry"); answered 409 after the commit.
        if (found.body.status === 'pending') await this.store(tx, tenantId, approval, identity.principal.id);
        return { expired: approval };
      }
      if (approval.status !== 'pending') {
        throw new AppError(409, 'already_decided', `Approval ${id} is already decided (${approval.status})`, {
          status: approval.status,
          decision: approval.decision,
          decider: approval.decider,
          decided_at: approval.decided_at,
        });
      }
      if (!isValidDecider(approval, decider, asking, now)) {
        const own = asking.has(identity.principal.id);
        throw new AppError(
          403,
          'not_a_valid_decider',
          own
            ? 'The principals that asked for the operation (its caller and on_behalf_of) cannot decide its approval'
            : 'The caller is not in candidate_deciders (by principal id or role), nor an escalation decider from escalates_at on',
          {
            candidate_deciders: approval.candidate_deciders,
            escalates_at: approval.escalates_at,
            escalation_deciders: approval.escalation_deciders,
            ...(own ? { requester: approval.requester, requester_principal: approval.requester_principal } : {}),
          },
        );
      }
      refuseUncoveredScopes(identity, approval, versions);
      let given = approval;
      let awaiting: string[] = [];
      if (body.decision === 'approve') {
        // Each triggering rule is approved by its own deciders: one rule's decider never approves for another rule
        // that reserved its approval to someone else (docs/approvals.md "Several rules").
        const ruleIds = rulesCountedFor(terms, decider, now);
        if (terms.length > 0 && ruleIds.length === 0) throw countsForNoRule(approval);
        given = withApproval(approval, { decider: identity.principal.id, notes: body.decider_notes, now, ruleIds });
        awaiting = rulesAwaitingApproval(terms, given.approvals);
      }
      const grant = checkGrant(body, approval, now, this.deps.grantTtlSeconds);
      if (body.decision === 'approve' && (awaiting.length > 0 || !quorumReached(given))) {
        // Fail closed: a grant is what the quorum agrees to, so only the approval that completes it may carry one.
        if (grant) throw quorumGrantRefused(given, awaiting);
        if (!(await this.deps.approvals.decide(tx, tenantId, given)))
          throw new AppError(409, 'already_decided', `Approval ${id} is already decided`);
        return { approval: given, decided: false };
      }
      const override = grant ? await this.grantOverride(tenantId, approval, identity.principal.id, body, grant) : undefined;
      const next = decided(given, {
        decider: identity.principal.id,
        body,
        now,
        grant: override ? { override_id: override.id, ...grant! } : undefined,
        validitySeconds: this.deps.validitySeconds,
      });
      await this.store(tx, tenantId, next, identity.principal.id);
      if (this.deps.sealing ?? true) {
        await this.deps.approvals.addSeal(
          tx,
          approvalSealRow(tenantId, {
            approval_id: id,
            kind: 'verdict',
            consultation_id: next.consultation_id,
            decision: next.status as 'approved' | 'rejected',
            decider: identity.principal.id,
            decided_at: next.decided_at!,
            override_id: override?.id,
          }),
        );
      }
      return { approval: next, decided: true };
    });
    if ('expired' in result) {
      this.deps.onEnqueued?.();
      throw approvalExpired(result.expired);
    }
    if (!result.decided) return result.approval;
    this.deps.onEnqueued?.();
    this.deps.onDecided?.(tenantId);
    if (result.approval.grants?.length) {
      // The registry also announces the override on Redis; refreshing here narrows the window in
      // which this replica still answers approval_required (any revision is "newer" than held).
      this.deps.snapshots.onChange({ tenant_id: tenantId, revision: Number.MAX_SAFE_INTEGER });
    }
    return result.approval;
  }

  /**
   * Stores an approval's end (approved, rejected or expired) with its `approval.resolved` event, in the
   * caller's transaction; only a pending row changes.
   */
  private async store(tx: PoolClient, tenantId: TenantId, next: Approval, actor: string): Promise<void> {
    if (!(await this.deps.approvals.decide(tx, tenantId, next)))
      throw new AppError(409, 'already_decided', `Approval ${next.id} is already decided`);
    await this.deps.approvals.enqueue(tx, tenantId, eventKey(next.id, 'resolved'), {
      type: 'approval.resolved',
      entity_type: 'approval',
      entity_id: next.id,
      actor_id: actor,
      data: next,
    });
  }

  /**
   * Each triggering rule's deciders, quorum and escalation (libs/policy triggerTerms), from its version as
   * triggerVersions reads it. A version the registry does not know keeps the approval's own candidate deciders and
   * quorum.
   */
  private triggerTermsOf(approval: Approval, versions: readonly (TriggerVersion | null)[]): TriggerTerms[] {
    return triggerTerms({ escalates_at: approval.escalates_at ?? null, triggers: approval.triggers }, versions, {
      deciders: approval.candidate_deciders,
      approvals_required: approval.approvals_required ?? 1,
    });
  }

  /**
   * The approval fields of the triggering rule versions: from the tenant snapshot, else from the
   * registry (a version no longer current). A version the registry does not know adds nothing (the
   * defaults); an unreachable registry is 503, so no approval is opened with terms weaker than its rules'.
   */
  private async triggerFields(tenantId: TenantId, triggers: { rule_version_id: string }[]): Promise<Partial<ApprovalFields>[]> {
    return (await this.triggerVersions(tenantId, triggers, 'request the approval again')).filter((v): v is ScopedVersion => v !== null);
  }

  /**
   * Each trigger's rule version (its scope, approval fields and deciders), in trigger order; null when the registry
   * does not know it. An unreachable registry is 503, its message ending in `retry` (what the caller sends again).
   */
  private triggerVersions(
    tenantId: TenantId,
    triggers: readonly { rule_version_id: string }[],
    retry: string,
  ): Promise<(ScopedVersion | null)[]> {
    return this.deps.versions.scopedVersions(
      tenantId,
      triggers.map((t) => t.rule_version_id),
      `The triggering rules cannot be read right now; ${retry}`,
    );
  }

  private async grantOverride(
    tenantId: string,
    approval: Approval,
    decider: string,
    body: DecisionBody,
    grant: NonNullable<ReturnType<typeof checkGrant>>,
  ): Promise<{ id: string }> {
    const targets = [...new Set(approval.triggers.map((t) => t.rule_id))];
    if (!targets.length) throw new AppError(409, 'no_triggering_rules', 'The approval names no triggering rule a grant could cover');
    const versions = [...new Set(approval.triggers.map((t) => t.rule_version_id))];
    try {
      // An earlier attempt's override (its answer lost) is reused only when it is this grant: one of other bounds
      // (a wider scope, a later end) would lift more than the decision records; it lifts nothing while no approval
      // names it (docs/approvals.md "Grants"), so a new one is made instead.
      const earlier = await this.deps.registry.findGrant(tenantId, approval.id, (o) =>
        sameGrant(o, { targets, versions, applies_to_scope: grant.applies_to_scope, expires_at: grant.expires_at }),
      );
      if (earlier) return earlier;
      return await this.deps.registry.createGrant(tenantId, {
        target_ids: targets,
        applies_to_scope: grant.applies_to_scope,
        expires_at: grant.expires_at,
        // The grant lifts these versions only: a rule changed since (say, made MANDATORY) is not lifted.
        target_version_ids: versions,
        justification: body.decider_notes || `Approval ${approval.id} of consultation ${approval.consultation_id}`,
        approved_by: decider,
        approval_id: approval.id,
        consultation_id: approval.consultation_id,
      });
    } catch (err) {
      if (err instanceof RegistryUnavailableError) {
        this.deps.logger.warn({ err, approval_id: approval.id }, 'approval grant not created: registry unavailable');
        throw new AppError(
          503,
          'registry_unavailable',
          'The grant cannot be created right now; the approval is still pending: send the decision again',
          undefined,
          {
            'Retry-After': '1',
          },
        );
      }
      if (err instanceof RegistryRejectedError) {
        // e.g. a triggering rule archived since, or applies_to_scope outside the tenant scope_schema.
        throw new AppError(422, 'invalid_grant', `The registry refused the grant: ${err.detail}`, { registry_status: err.status });
      }
      throw err;
    }
  }
}

/**
 * A key restricted to some scopes (`scope_ids`) decides only approvals whose triggering rules all lie in those
 * scopes (docs/approvals.md "Deciding"): 403 not_a_valid_decider otherwise, for approve and reject alike. The rules'
 * scopes are their versions' (the tenant snapshot's, else the registry's immutable rule versions: an archived rule);
 * one that cannot be found is not covered.
 */
function refuseUncoveredScopes(identity: AuthenticatedIdentity, approval: Approval, versions: readonly (ScopedVersion | null)[]): void {
  const missing = uncoveredScopes(identity, approval, versions);
  if (missing.length) {
    throw new AppError(
      403,
      'not_a_valid_decider',
      `The API key is restricted to scopes that do not include ${missing.join(', ')}, where the triggering rules of approval ${approval.id} lie`,
      {
        reason: 'scope_not_covered',
        scopes_not_covered: missing,
        key_scope_ids: identity.scope_ids,
      },
    );
  }
}

/** The scopes of an approval's triggering rules a key does not reach: none for a key valid for all scopes; an approval without triggers lies nowhere. */
function uncoveredScopes(identity: AuthenticatedIdentity, approval: Triggered, versions: readonly (ScopedVersion | null)[]): string[] {
  if (identity.scope_ids.length === 0) return [];
  const scopes = approval.triggers.length ? versions.map((v) => v?.scope_id ?? null) : [null];
  return scopesNotCovered(identity.scope_ids, scopes);
}

/** An override made for an approval has exactly the bounds of the grant being recorded. */
export function sameGrant(
  o: Pick<OverrideState, 'override_type' | 'target_ids' | 'target_version_ids' | 'applies_to_scope' | 'expires_at'>,
  grant: { targets: readonly string[]; versions: readonly string[]; applies_to_scope: object; expires_at: string },
): boolean {
  const sameIds = (a: readonly string[] | undefined, b: readonly string[]) =>
    a !== undefined && a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');
  return (
    o.override_type === 'approval_grant' &&
    sameIds(o.target_ids, grant.targets) &&
    sameIds(o.target_version_ids, grant.versions) &&
    o.applies_to_scope !== null &&
    canonicalJson(o.applies_to_scope) === canonicalJson(grant.applies_to_scope) &&
    o.expires_at !== null &&
    Date.parse(o.expires_at) === Date.parse(grant.expires_at)
  );
}
