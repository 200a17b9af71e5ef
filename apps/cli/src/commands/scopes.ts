// `arbiter scopes create | list` and `arbiter approvals request | list | get | decide` (docs/cli.md
// "Checks, scopes and approvals"): the first steps after a check, without curl. Scopes are the registry's
// (creating one needs `admin`: its selector decides which operations its rules govern); approvals are the
// verdict gateway's one-shot approvals (docs/approvals.md "The agent's loop").
import type { Approval, DecideApprovalBody } from '@arbiter/client';
import type { CommandContext, ServiceFlags } from '../context';
import { CliError, EXIT } from '../io';
import { jsonObjectOf, keyValues } from './check';

export interface ScopeCreateOptions extends ServiceFlags {
  selector?: string[];
  description?: string;
}

interface ScopeRow {
  id: string;
  name: string;
  selector: Record<string, unknown>;
  status: string;
}
const scopeLine = (s: ScopeRow) => `${s.id}  ${s.name}  selector: ${JSON.stringify(s.selector)}  ${s.status}`;

export async function createScope(ctx: CommandContext, name: string, opts: ScopeCreateOptions): Promise<number> {
  const selector = keyValues(opts.selector ?? [], '--selector', false) as Record<string, string | number | boolean>;
  const scope = await ctx
    .registry(opts, true, 'admin')
    .createScope({ name, selector, ...(opts.description ? { description: opts.description } : {}) });
  ctx.print(scope, `scope ${scope.id} created: ${scope.name}, selector ${JSON.stringify(scope.selector)}`);
  return EXIT.ok;
}

export async function listScopes(ctx: CommandContext, opts: ServiceFlags): Promise<number> {
  const registry = ctx.registry(opts, true, 'rules');
  const items = await registry.all((cursor) => registry.listScopes({ cursor, limit: 1000 }));
  ctx.print(items, items.length ? items.map(scopeLine).join('\n') : 'no scopes');
  return EXIT.ok;
}

/** Quorum and expiry (docs/approvals.md "Quorum, escalation and expiry"): `approvals 1/2, expires …` while pending. */
const approvalState = (a: Approval) =>
  a.status === 'pending' ? `  approvals ${a.approvals.length}/${a.approvals_required}, expires ${a.expires_at}` : '';

const approvalLine = (a: Approval) =>
  `${a.id}  ${a.status}  ${a.intended_action} on ${a.intended_resource}  consultation ${a.consultation_id}  deciders: ${a.candidate_deciders.join(', ') || '-'}${approvalState(a)}${a.decider ? `  decided by ${a.decider}` : ''}`;

export async function requestApproval(
  ctx: CommandContext,
  consultationId: string,
  opts: ServiceFlags & { notes?: string },
): Promise<number> {
  const approval = await ctx
    .verdict(opts, true, 'agent')
    .createApproval({ consultation_id: consultationId, ...(opts.notes ? { requester_notes: opts.notes } : {}) });
  ctx.print(
    approval,
    `approval ${approval.id} ${approval.status}: ${approvalLine(approval)}\nonce it is approved, the same check (same action, resource, scope and parameters, same key) is allowed once`,
  );
  return EXIT.ok;
}

export async function listApprovals(ctx: CommandContext, opts: ServiceFlags & { status?: string; assignee?: string }): Promise<number> {
  const client = ctx.verdict(opts, true, 'approver');
  const items: Approval[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listApprovals({
      limit: 100,
      cursor,
      ...(opts.status ? { status: opts.status } : {}),
      ...(opts.assignee ? { assignee: opts.assignee } : {}),
    } as Parameters<typeof client.listApprovals>[0]);
    items.push(...page.items);
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  ctx.print(items, items.length ? items.map(approvalLine).join('\n') : 'no approvals');
  return EXIT.ok;
}

export async function getApproval(ctx: CommandContext, id: string, opts: ServiceFlags): Promise<number> {
  const approval = await ctx.verdict(opts, true, 'agent').getApproval(id);
  ctx.print(approval, approvalLine(approval));
  return EXIT.ok;
}

export interface DecideOptions extends ServiceFlags {
  approve?: boolean;
  reject?: boolean;
  notes?: string;
  grant?: string;
}

export async function decideApproval(ctx: CommandContext, id: string, opts: DecideOptions): Promise<number> {
  if (Boolean(opts.approve) === Boolean(opts.reject)) throw new CliError('say --approve or --reject');
  const body = {
    decision: opts.approve ? 'approve' : 'reject',
    ...(opts.notes ? { decider_notes: opts.notes } : {}),
    ...(opts.grant ? { grant: jsonObjectOf(opts.grant, '--grant') } : {}),
  } as DecideApprovalBody;
  const approval = await ctx.verdict(opts, true, 'approver').decideApproval(id, body);
  ctx.print(
    approval,
    `approval ${approval.id} ${approval.status}${approval.authorizes_until ? ` (the operation may run once until ${approval.authorizes_until})` : ''}`,
  );
  return EXIT.ok;
}
