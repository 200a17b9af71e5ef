import type { TenantId } from '@arbiter/auth';
import { mintTenantId } from '@arbiter/auth';
import { newId } from '@arbiter/db';
import type { Logger } from 'pino';
import type { PrismaClient } from '../generated/prisma/client';
import {
  chatWebhooksOf,
  consoleLink,
  emailMessage,
  planNotifications,
  readNotifiedApproval,
  slackMessage,
  teamsMessage,
  type ApprovalFlow,
  type MessageFacts,
  type NotificationReason,
} from '../domain/approval-notifications';
import { notFound } from '../domain/errors';
import { retryDelayMs } from '../domain/retry-schedule';
import type { Db } from '../repositories/db';
import type { EventRow } from '../repositories/events.repository';
import { EventsRepository } from '../repositories/events.repository';
import { ApprovalsRepository } from '../repositories/approvals.repository';
import { EntriesRepository } from '../repositories/entries.repository';
import { NotificationsAnyTenantRepository, NotificationsRepository, type NotificationRow } from '../repositories/notifications.repository';
import { RulesRepository } from '../repositories/rules.repository';
import type { NotificationAttemptReport } from '../models/internal';

/** Sends one email; resolves when the SMTP server accepted it, rejects otherwise (clients/approval-mailer.ts). */
export type Mailer = (mail: { to: string; subject: string; text: string; html: string }) => Promise<void>;
/** POSTs one chat message (the webhook sender: destination checked, address pinned). */
export type ChatPoster = (
  url: string,
  body: string,
) => Promise<{ ok: boolean; retryable: boolean; status_code: number | null; error: string | null }>;
/** The status of a verdict approval (the gateway's internal API), or null when it does not know it. */
export type VerdictApprovalStatus = (tenantId: string, approvalId: string) => Promise<string | null>;

export interface NotifierOptions {
  /** null: email is off (SMTP_URL unset), no email rows are written. */
  mailer: Mailer | null;
  chat: ChatPoster;
  verdictStatus: VerdictApprovalStatus | null;
  consoleUrl: string;
  maxAttempts: number;
  retryBaseMs: number;
  retryMaxDelayMs: number;
  /** How long an attempt may take before the row is due again (it did not report back). */
  inflightMs: number;
}

const MAX_ERROR_LENGTH = 500;

/**
 * Approval notifications (docs/approvals.md "Notifications"; ADR 0030).
 * - `route`, inside the transaction that stores events (ChangeWriter): for each `approval.requested`, one row per
 *   recipient channel, due now, and the escalation's rows, due at `escalates_at`. A rolled-back change writes none.
 * - `attempt`, run by the worker's `notification.v1.send` job: claims attempt n under the row's lock (pending,
 *   due, at n - 1; a repeat is answered `skipped`), builds the message, sends it outside any transaction, and
 *   records the result with the webhooks' retry schedule; after `maxAttempts` failures the row fails for good.
 *   An escalation is sent only while the approval is still pending (else cancelled); a failure of one row
 *   never touches another row, nor any approval.
 */
export class ApprovalNotifier {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly opts: NotifierOptions,
    private readonly logger: Logger,
  ) {}

  get emailOn(): boolean {
    return this.opts.mailer !== null;
  }

  async route(tx: Db, tenantId: TenantId, events: EventRow[]): Promise<void> {
    const requested = events.filter((e) => e.type === 'approval.requested');
    if (!requested.length) return;
    const repo = new NotificationsRepository(tx);
    const [people, settings] = await Promise.all([repo.people(tenantId), repo.settings(tenantId)]);
    const chat = chatWebhooksOf(settings);
    for (const event of requested) {
      const approval = readNotifiedApproval(event.source, event.data);
      if (!approval) continue;
      const scopes =
        approval.flow === 'registry'
          ? approval.scope_id
            ? [approval.scope_id]
            : []
          : await repo.scopesOfRules(tenantId, approval.rule_ids);
      const plan = planNotifications(approval, people, chat, this.emailOn, scopes);
      await repo.createMany(
        tenantId,
        plan.map((p) => ({
          id: newId('ntf-'),
          event_id: event.id,
          approval_id: approval.id,
          flow: approval.flow,
          scope_id: approval.scope_id,
          reason: p.reason,
          channel: p.channel,
          recipient: p.recipient,
          principal_id: p.principal_id,
          max_attempts: this.opts.maxAttempts,
          next_attempt_at: p.due ?? new Date(),
          keep_until: event.keep_until,
        })),
      );
    }
  }

  async attempt(id: string, attempt: number): Promise<NotificationAttemptReport> {
    const any = new NotificationsAnyTenantRepository(this.prisma);
    const before = await any.findById(id);
    if (!before) throw notFound('Notification', id);
    // An escalation goes out only while the approval waits (read outside the claim: the verdict's is a call).
    if (before.reason === 'escalated' && before.status === 'pending') {
      const still = await this.stillPending(before);
      if (still !== true) {
        await any.cancel(id, still);
        return report((await any.findById(id))!, attempt, 'cancelled', still);
      }
    }
    const claim = await this.prisma.$transaction(async (tx) => {
      const repo = new NotificationsAnyTenantRepository(tx);
      const n = await repo.lock(id);
      if (!n) throw notFound('Notification', id);
      if (n.status !== 'pending') return { run: false as const, reason: `notification is ${n.status}` };
      if (n.attempt_count !== attempt - 1)
        return { run: false as const, reason: `attempt ${attempt} is not the next one (${n.attempt_count} made)` };
      if (!n.due) return { run: false as const, reason: 'not due yet' };
      await repo.startAttempt(id, attempt, this.opts.inflightMs);
      return { run: true as const, row: n };
    });
    if (!claim.run) return report((await any.findById(id))!, attempt, 'skipped', claim.reason);

    const row = claim.row;
    let result: { ok: boolean; retryable: boolean; error: string | null };
    try {
      const facts = await this.facts(row);
      result = await this.send(row, facts);
    } catch (err) {
      result = { ok: false, retryable: true, error: (err as Error).message || String(err) };
    }
    const last = attempt >= row.max_attempts || !result.retryable;
    await any.recordResult(id, attempt, {
      status: result.ok ? 'sent' : last ? 'failed' : 'pending',
      error: result.ok ? null : (result.error ?? 'failed').slice(0, MAX_ERROR_LENGTH),
      retryInMs: result.ok || last ? null : retryDelayMs(attempt, this.opts.retryBaseMs, this.opts.retryMaxDelayMs),
    });
    const after = (await any.findById(id))!;
    if (!result.ok && after.status === 'failed')
      this.logger.warn(
        { notification_id: id, approval_id: row.approval_id, channel: row.channel, error: after.last_error },
        'approval notification gave up',
      );
    const outcome = result.ok ? 'sent' : after.status === 'pending' ? 'retry_scheduled' : 'failed';
    return report(after, attempt, outcome, result.ok ? null : after.last_error);
  }

  /** True, or why the escalation is not sent: the approval was decided, expired, or cannot be found. */
  private async stillPending(row: NotificationRow): Promise<true | string> {
    const tenantId = mintTenantId(row.tenant_id);
    const event = await new EventsRepository(this.prisma).findAnyTenant(row.event_id, [row.keep_until]);
    const approval = event && readNotifiedApproval(event.source, event.data);
    if (approval?.expires_at && new Date(approval.expires_at).getTime() <= Date.now()) return 'approval expired';
    let status: string | null;
    if (row.flow === 'registry') {
      const found = row.scope_id ? await new ApprovalsRepository(this.prisma).find(tenantId, row.scope_id, row.approval_id) : null;
      status = found?.status ?? null;
    } else {
      // Fails closed: without the gateway's answer, no escalation is sent (the attempt is retried).
      if (!this.opts.verdictStatus)
        return 'the verdict gateway is not configured (VERDICT_URL): cannot tell whether the approval is pending';
      status = await this.opts.verdictStatus(row.tenant_id, row.approval_id);
    }
    if (status === 'pending') return true;
    return status ? `approval is ${status}` : 'approval not found';
  }

  private async facts(row: NotificationRow): Promise<MessageFacts> {
    const tenantId = mintTenantId(row.tenant_id);
    const event = await new EventsRepository(this.prisma).findAnyTenant(row.event_id, [row.keep_until]);
    const approval = event && readNotifiedApproval(event.source, event.data);
    if (!approval) throw new Error(`event ${row.event_id} holds no approval`);
    return {
      reason: row.reason as NotificationReason,
      approval_id: approval.id,
      action: approval.action,
      resource: approval.resource,
      statements: await this.statements(tenantId, approval.rule_ids),
      requester: approval.requester,
      on_behalf_of: approval.on_behalf_of,
      requester_label: approval.requester_label,
      expires_at: approval.expires_at,
      link: consoleLink(this.opts.consoleUrl, row.flow as ApprovalFlow, approval.id, row.scope_id),
    };
  }

  /** The statements of the deciding rules and invariants, from the registry's own tables (never from the event). */
  private async statements(tenantId: TenantId, ids: string[]): Promise<MessageFacts['statements']> {
    const rules = await new RulesRepository(this.prisma).findMany(
      tenantId,
      ids.filter((i) => i.startsWith('rul-')),
    );
    const invariants = await new EntriesRepository(this.prisma).findInvariants(
      tenantId,
      ids.filter((i) => i.startsWith('inv-')),
    );
    return ids.map((id) => ({
      id,
      statement: rules.find((r) => r.id === id)?.current_version?.directive ?? invariants.find((v) => v.id === id)?.constraint ?? null,
    }));
  }

  private async send(row: NotificationRow, facts: MessageFacts): Promise<{ ok: boolean; retryable: boolean; error: string | null }> {
    if (row.channel === 'email') {
      if (!this.opts.mailer) return { ok: false, retryable: false, error: 'email is off (SMTP_URL is not set)' };
      await this.opts.mailer({ to: row.recipient, ...emailMessage(facts) });
      return { ok: true, retryable: false, error: null };
    }
    const body = JSON.stringify(row.channel === 'slack' ? slackMessage(facts) : teamsMessage(facts));
    const r = await this.opts.chat(row.recipient, body);
    return { ok: r.ok, retryable: r.retryable, error: r.error };
  }
}

function report(
  row: NotificationRow,
  attempt: number,
  outcome: NotificationAttemptReport['outcome'],
  error: string | null,
): NotificationAttemptReport {
  return {
    notification_id: row.id,
    attempt,
    outcome,
    error,
    status: row.status as NotificationAttemptReport['status'],
    next_attempt_at: row.status === 'pending' ? row.next_attempt_at.toISOString() : null,
  };
}
