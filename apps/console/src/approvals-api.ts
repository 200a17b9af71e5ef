// Reading and deciding approvals of both flows through the console's forwarders (docs/console.md "The inbox").
// Every function answers values: the items it could read and the errors of what it could not, so a page shows
// what there is (the verdict approvals when the registry refuses, for instance) and says what is missing.
import { get, post, query, registryPath, seg, verdictPath, type ApiError, type ApiResult } from './api';
import { fromRegistry, fromVerdict, type ApprovalView, type RegistryApproval, type VerdictApproval } from './approvals';
import type { Session } from './session';

interface Page<T> {
  items: T[];
  next_cursor: string | null;
}

export interface ScopeRef {
  id: string;
  name: string;
}

export interface Loaded<T> {
  items: T[];
  errors: { what: string; error: ApiError }[];
}

/** Pages through a list endpoint; stops after `maxPages` (the console shows the newest, not an archive). */
async function allPages<T>(path: (cursor: string | null) => string, maxPages = 5): Promise<ApiResult<T[]>> {
  const items: T[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < maxPages; page++) {
    const answer: ApiResult<Page<T>> = await get<Page<T>>(path(cursor));
    if (!answer.ok) return answer;
    items.push(...(Array.isArray(answer.data?.items) ? answer.data.items : []));
    cursor = answer.data?.next_cursor ?? null;
    if (!cursor) break;
  }
  return { ok: true, status: 200, data: items };
}

const verdictApprovals = (session: Session, rest = '') => verdictPath(`${seg(session.tenant_id)}/v1/approvals${rest}`);

export async function listScopes(): Promise<ApiResult<ScopeRef[]>> {
  return allPages<ScopeRef>((cursor) => registryPath(`scopes${query({ limit: 200, cursor })}`));
}

/** Approvals of one status from both flows (registry: every scope the person can read). */
export async function loadApprovals(session: Session, status: string, scopes: ScopeRef[]): Promise<Loaded<ApprovalView>> {
  const result: Loaded<ApprovalView> = { items: [], errors: [] };
  const [verdict, ...registry] = await Promise.all([
    allPages<VerdictApproval>((cursor) => verdictApprovals(session, query({ status, limit: 200, cursor }))),
    ...scopes.map((scope) =>
      allPages<RegistryApproval>((cursor) => registryPath(`scopes/${seg(scope.id)}/approvals${query({ status, limit: 200, cursor })}`)),
    ),
  ]);
  if (verdict.ok) result.items.push(...verdict.data.map(fromVerdict));
  else result.errors.push({ what: `Approvals of the verdict service (${status})`, error: verdict.error });
  registry.forEach((answer, i) => {
    if (answer.ok) result.items.push(...answer.data.map(fromRegistry));
    else result.errors.push({ what: `Registry approvals of scope ${scopes[i].name} (${status})`, error: answer.error });
  });
  return result;
}

export interface RuleInfo {
  id: string;
  scopeId: string;
  statement: string;
  currentVersionId: string | null;
}

/** The rules of every scope, by id: where the inbox finds a triggering rule's statement. */
export async function loadRuleIndex(scopes: ScopeRef[]): Promise<Loaded<RuleInfo>> {
  const result: Loaded<RuleInfo> = { items: [], errors: [] };
  const answers = await Promise.all(
    scopes.map((scope) =>
      allPages<{ id: string; directive: string; current_version_id?: string }>((cursor) =>
        registryPath(`scopes/${seg(scope.id)}/rules${query({ status: 'all', limit: 1000, cursor })}`),
      ),
    ),
  );
  answers.forEach((answer, i) => {
    if (answer.ok)
      result.items.push(
        ...answer.data.map((r) => ({
          id: r.id,
          scopeId: scopes[i].id,
          statement: String(r.directive ?? ''),
          currentVersionId: r.current_version_id ?? null,
        })),
      );
    else result.errors.push({ what: `Rules of scope ${scopes[i].name}`, error: answer.error });
  });
  return result;
}

/** A registry approval's trigger: the rule's directive or the invariant's constraint. */
export async function loadTrigger(view: ApprovalView): Promise<ApiResult<string>> {
  const rule = view.rules[0];
  if (view.flow !== 'registry' || !view.scopeId || !rule) return { ok: true, status: 200, data: '' };
  const kind = rule.kind === 'invariant' ? 'invariants' : 'rules';
  const answer = await get<{ directive?: string; constraint?: string }>(
    registryPath(`scopes/${seg(view.scopeId)}/${kind}/${seg(rule.id)}`),
  );
  if (!answer.ok) return answer;
  return { ok: true, status: answer.status, data: String(answer.data?.directive ?? answer.data?.constraint ?? '') };
}

export type ApprovalTarget = { flow: 'verdict'; id: string } | { flow: 'registry'; scopeId: string; id: string };

export interface LoadedApproval {
  view: ApprovalView;
  /** Registry flow: whether approving creates an override (its end time can be chosen). */
  requiresApproval: boolean;
}

export async function loadApproval(session: Session, target: ApprovalTarget): Promise<ApiResult<LoadedApproval>> {
  if (target.flow === 'verdict') {
    const answer = await get<VerdictApproval>(verdictApprovals(session, `/${seg(target.id)}`));
    return answer.ok ? { ok: true, status: answer.status, data: { view: fromVerdict(answer.data), requiresApproval: false } } : answer;
  }
  const answer = await get<RegistryApproval>(registryPath(`scopes/${seg(target.scopeId)}/approvals/${seg(target.id)}`));
  return answer.ok
    ? {
        ok: true,
        status: answer.status,
        data: { view: fromRegistry(answer.data), requiresApproval: answer.data.requires_approval === true },
      }
    : answer;
}

export interface Decision {
  approve: boolean;
  notes: string;
  /** ISO 8601: the verdict grant's or the registry override's end; absent for none (verdict) or the default (registry). */
  grantUntil: string | null;
}

/** The request body of a decision, per flow (docs/approvals.md "Decide" and "Deciding"). Pure. */
export function decisionBody(flow: ApprovalView['flow'], decision: Decision): Record<string, unknown> {
  const notes = decision.notes.trim() ? decision.notes : undefined;
  if (flow === 'verdict') {
    return {
      decision: decision.approve ? 'approve' : 'reject',
      ...(notes !== undefined ? { decider_notes: notes } : {}),
      // The grant covers exactly the approved operation's scope (applies_to_scope absent), until grantUntil.
      ...(decision.approve && decision.grantUntil ? { grant: { expires_at: decision.grantUntil } } : {}),
    };
  }
  return {
    decision: decision.approve ? 'approved' : 'rejected',
    ...(notes !== undefined ? { comment: notes } : {}),
    ...(decision.approve && decision.grantUntil ? { expires_at: decision.grantUntil } : {}),
  };
}

export async function decide(session: Session, target: ApprovalTarget, decision: Decision): Promise<ApiResult<LoadedApproval>> {
  if (target.flow === 'verdict') {
    const answer = await post<VerdictApproval>(verdictApprovals(session, `/${seg(target.id)}/decision`), decisionBody('verdict', decision));
    return answer.ok ? { ok: true, status: answer.status, data: { view: fromVerdict(answer.data), requiresApproval: false } } : answer;
  }
  const answer = await post<RegistryApproval>(
    registryPath(`scopes/${seg(target.scopeId)}/approvals/${seg(target.id)}/decide`),
    decisionBody('registry', decision),
  );
  return answer.ok
    ? {
        ok: true,
        status: answer.status,
        data: { view: fromRegistry(answer.data), requiresApproval: answer.data.requires_approval === true },
      }
    : answer;
}
