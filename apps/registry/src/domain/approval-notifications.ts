/**
 * Notifications of new and escalated approvals (docs/approvals.md "Notifications"; ADR 0030): who is told,
 * through which channel, and what each message says. Pure: the registry's router and sender do the I/O.
 */
import { LinkifyIt } from 'linkify-it';

export type ApprovalFlow = 'verdict' | 'registry';
export type NotificationReason = 'requested' | 'escalated';
export type NotificationChannel = 'email' | 'slack' | 'teams';

/** What a notification reads of an approval, as the event carrying it holds it (either flow). */
export interface NotifiedApproval {
  id: string;
  flow: ApprovalFlow;
  /** Registry approvals: their scope (the console link); null for verdict approvals. */
  scope_id: string | null;
  action: string;
  resource: string;
  /** The deciding rules (`rul-`) or the invariant (`inv-`) whose statements the message quotes. */
  rule_ids: string[];
  /** The authenticated principal that asked: a verdict approval's `requester`, a registry approval's `created_by`. */
  requester: string;
  /** The principal the requester acted for, when another one (verdict `requester_principal`). */
  on_behalf_of: string | null;
  /** A registry approval's `requested_by`, a free-text label its requester chose (shown only as a label); else null. */
  requester_label: string | null;
  /** Principals who never decide it and are never notified of it. */
  excluded: string[];
  candidate_deciders: string[];
  expires_at: string | null;
  escalates_at: Date | null;
  escalation_deciders: string[];
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const date = (v: unknown): Date | null => {
  const s = str(v);
  if (!s) return null;
  const d = new Date(s);
  return Number.isNaN(d.getTime()) ? null : d;
};

/**
 * Reads the approval out of an `approval.requested` event's data (the approval as its API answers it:
 * the registry's own, or the verdict gateway's through the internal events endpoint). Null when the data
 * is not an approval (nothing is routed then). The escalation fields are read when present.
 */
export function readNotifiedApproval(source: string, data: unknown): NotifiedApproval | null {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return null;
  const a = data as Record<string, unknown>;
  const id = str(a.id);
  if (!id) return null;
  const common = {
    id,
    candidate_deciders: strs(a.candidate_deciders),
    expires_at: str(a.expires_at),
    escalates_at: date(a.escalates_at),
    escalation_deciders: strs(a.escalation_deciders),
    action: str(a.intended_action) ?? '',
  };
  if (source === 'verdict') {
    const requester = str(a.requester) ?? '';
    const forWhom = str(a.requester_principal);
    const triggers = Array.isArray(a.triggers) ? (a.triggers as Array<Record<string, unknown>>) : [];
    return {
      ...common,
      flow: 'verdict',
      scope_id: null,
      resource: str(a.intended_resource) ?? '',
      rule_ids: [...new Set(triggers.map((t) => str(t?.rule_id)).filter((r): r is string => !!r))],
      requester,
      on_behalf_of: forWhom && forWhom !== requester ? forWhom : null,
      requester_label: null,
      excluded: [requester, forWhom].filter((p): p is string => !!p),
    };
  }
  const trigger = str(a.trigger_id);
  const createdBy = str(a.created_by);
  const label = str(a.requested_by);
  return {
    ...common,
    flow: 'registry',
    scope_id: str(a.scope_id),
    resource: trigger ?? '',
    rule_ids: trigger ? [trigger] : [],
    // Who asked is the authenticated creator; `requested_by` is only what the requester wrote about itself.
    requester: createdBy ?? '',
    on_behalf_of: null,
    // `requested_by` defaults to the creator's id: a label only when it says something else.
    requester_label: label && label !== createdBy ? label : null,
    excluded: createdBy ? [createdBy] : [],
  };
}

/** A principal as routing sees it, with where it may approve (`approve`, `admin` or `platform_admin`). */
export interface RoutedPerson {
  id: string;
  kind: string;
  active: boolean;
  roles: string[];
  email: string | null;
  /** A console permission or a live key valid for every scope approves. */
  approves_everywhere: boolean;
  /** The scope lists of its live approving keys restricted to some scopes. */
  approves_within: string[][];
}

/**
 * Whether the person may decide an approval whose deciding rules lie in `scopes`: approving everywhere, or with one
 * key whose scopes hold them all (a restricted key decides only then: docs/approvals.md "Deciding"). Scopes unknown
 * (empty): only who approves everywhere.
 */
export function approvesIn(p: RoutedPerson, scopes: readonly string[]): boolean {
  if (p.approves_everywhere) return true;
  return scopes.length > 0 && p.approves_within.some((own) => scopes.every((s) => own.includes(s)));
}

export interface ChatWebhookSetting {
  url: string;
  format: 'slack' | 'teams';
}

export interface PlannedNotification {
  reason: NotificationReason;
  channel: NotificationChannel;
  recipient: string;
  principal_id: string | null;
  /** When it is due: now (null) or the escalation time. */
  due: Date | null;
}

/**
 * The people a list of deciders names, who get an email: a principal id names that principal, a `role-` id
 * every principal holding the role; an empty list means anyone who may decide (`approves`). Only active human
 * principals with an email address, never one of `excluded` (the requester cannot decide its own approval),
 * one message per address.
 */
export function emailRecipients(
  deciders: string[],
  people: RoutedPerson[],
  excluded: string[],
  scopes: readonly string[],
): Array<{ principal_id: string; email: string }> {
  // Whoever approves only with keys of other scopes cannot decide it, and would learn of another scope's operation. A
  // named decider that approves nowhere yet is still told: the rule's author named it (it is given a key to decide).
  const approvesNowhere = (p: RoutedPerson) => !p.approves_everywhere && p.approves_within.length === 0;
  const named = (p: RoutedPerson) =>
    deciders.length === 0
      ? approvesIn(p, scopes)
      : deciders.some((d) => (d.startsWith('role-') ? p.roles.includes(d) : d === p.id)) && (approvesIn(p, scopes) || approvesNowhere(p));
  const out = new Map<string, { principal_id: string; email: string }>();
  for (const p of [...people].sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0))) {
    if (!p.active || p.kind !== 'human' || !p.email || excluded.includes(p.id) || !named(p)) continue;
    const key = p.email.toLowerCase();
    if (!out.has(key)) out.set(key, { principal_id: p.id, email: p.email });
  }
  return [...out.values()];
}

/**
 * Every notification a new approval makes: an email to each candidate decider (when email is on) and one
 * message per chat webhook, due now; and, when the approval escalates (`escalates_at` and escalation
 * deciders), an email to each escalation decider and one more chat message each, due at `escalates_at`.
 */
export function planNotifications(
  approval: NotifiedApproval,
  people: RoutedPerson[],
  chat: ChatWebhookSetting[],
  emailOn: boolean,
  /** The scopes of the approval's deciding rules (a registry approval: its scope). */
  scopes: readonly string[],
): PlannedNotification[] {
  const plan: PlannedNotification[] = [];
  const add = (reason: NotificationReason, deciders: string[], due: Date | null) => {
    if (emailOn) {
      for (const r of emailRecipients(deciders, people, approval.excluded, scopes))
        plan.push({ reason, channel: 'email', recipient: r.email, principal_id: r.principal_id, due });
    }
    const seen = new Set<string>();
    for (const hook of chat) {
      if (seen.has(`${hook.format} ${hook.url}`)) continue;
      seen.add(`${hook.format} ${hook.url}`);
      plan.push({ reason, channel: hook.format, recipient: hook.url, principal_id: null, due });
    }
  };
  add('requested', approval.candidate_deciders, null);
  if (approval.escalates_at && approval.escalation_deciders.length) add('escalated', approval.escalation_deciders, approval.escalates_at);
  return plan;
}

/** The chat webhooks of a tenant's settings (`approval_notifications.chat_webhooks`), the well-formed ones. */
export function chatWebhooksOf(settings: unknown): ChatWebhookSetting[] {
  const n = (settings as { approval_notifications?: { chat_webhooks?: unknown } } | null)?.approval_notifications?.chat_webhooks;
  if (!Array.isArray(n)) return [];
  return n.filter((h): h is ChatWebhookSetting => !!h && typeof h.url === 'string' && (h.format === 'slack' || h.format === 'teams'));
}

// --- messages ---------------------------------------------------------------------------------

/** What a message says: only these facts, never the approval's parameters (they may be sensitive). */
export interface MessageFacts {
  reason: NotificationReason;
  approval_id: string;
  action: string;
  resource: string;
  /** The deciding rules' statements (looked up in the registry, not taken from the event). */
  statements: Array<{ id: string; statement: string | null }>;
  /** The authenticated principal that asked (a registry approval's `created_by`, a verdict approval's `requester`). */
  requester: string;
  on_behalf_of: string | null;
  /** A registry approval's free-text `requested_by`, shown only as a quoted label; null otherwise. */
  requester_label: string | null;
  expires_at: string | null;
  link: string;
}

/** The console page of an approval (the console's routes, docs/approvals.md "Notifications"). */
export function consoleLink(consoleUrl: string, flow: ApprovalFlow, approvalId: string, scopeId: string | null): string {
  const base = consoleUrl.replace(/\/+$/, '');
  const id = encodeURIComponent(approvalId);
  return flow === 'registry' && scopeId
    ? `${base}/approvals/registry/${encodeURIComponent(scopeId)}/${id}`
    : `${base}/approvals/verdict/${id}`;
}

/** Longest stretch of one agent-supplied value a message quotes; the console shows the rest. */
export const MAX_QUOTED = 500;

/**
 * Unicode's format characters (category Cf): zero-width ones, which split a host or a scheme so that nothing finds
 * the link a mail client may still make of it, and bidirectional controls, which make text read other than it is.
 */
const INVISIBLE = /\p{Cf}/gu;
/** Full stops a host may be written with besides "." (IDNA reads them as its dots): read as dots, so defang finds them. */
const HOST_DOTS = /[\u3002\uff0e\uff61]/g;

/**
 * One line of text: control characters (line breaks included) become spaces, format characters are written as their
 * code point (`[U+200B]`), the full stops a host may be written with become ".", and long values are cut.
 */
export function oneLine(value: string, max = MAX_QUOTED): string {
  const flat = value
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')
    .replace(INVISIBLE, (c) => `[U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}]`)
    .replace(HOST_DOTS, '.')
    .trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

export function escapeHtml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** Slack mrkdwn: `&`, `<` and `>` are its control characters (links, mentions); escaped, agent text stays text. */
export function escapeSlack(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * Teams MessageCard text is Markdown with some HTML: HTML-escaped, and the Markdown characters that make links,
 * emphasis or code written as entities, so `[click](https://evil)` shows as written.
 */
export function escapeTeams(value: string): string {
  return escapeHtml(value).replace(/[[\]()*_`~#|!\\]/g, (c) => `&#${c.charCodeAt(0)};`);
}

const headline = (f: MessageFacts) => (f.reason === 'escalated' ? 'Approval escalated, still waiting' : 'Approval requested');

/**
 * What a mail or chat client links by itself in plain text: URLs, `//host`, bare hosts under a known top-level domain
 * (linkify-it's list, the two-letter country domains, and common newer ones), IPv4 hosts and e-mail addresses.
 */
const autolinks = new LinkifyIt({ fuzzyLink: true, fuzzyEmail: true, fuzzyIP: true }).tlds(
  [
    'app',
    'dev',
    'xyz',
    'online',
    'site',
    'top',
    'club',
    'cloud',
    'link',
    'live',
    'page',
    'tech',
    'store',
    'click',
    'email',
    'support',
    'help',
  ],
  true,
);

/**
 * Makes a URL in agent text unclickable where a client would link it by itself (docs/approvals.md "Notifications"):
 * `scheme://` becomes `scheme[:]//`, `www.` becomes `www[.]`, and whatever else a client would still link (a bare
 * host such as `approve-arbiter.com/login`, an address such as `cfo@approve-arbiter.com`) has its dots and `@`
 * bracketed: `approve-arbiter[.]com/login`, `cfo[@]approve-arbiter[.]com`. The text still reads.
 */
export function defang(value: string): string {
  const out = value.replace(/([a-z][a-z0-9+.-]*):(?=\/\/)/gi, '$1[:]').replace(/\b(www)\./gi, '$1[.]');
  const found = autolinks.match(out);
  if (!found) return out;
  let rest = out;
  for (const m of [...found].reverse())
    rest = rest.slice(0, m.index) + rest.slice(m.index, m.lastIndex).replace(/\./g, '[.]').replace(/@/g, '[@]') + rest.slice(m.lastIndex);
  return rest;
}

/**
 * A Slack inline code span holding agent text: nothing in it is formatted (`*`, `_`, `~`) or linked; a backtick in
 * the value becomes `ˋ` (U+02CB) so the span cannot be closed early; `&`, `<` and `>` are escaped as Slack needs.
 */
export function slackCode(value: string): string {
  const inner = escapeSlack(defang(value).replace(/`/g, '\u02cb'));
  return inner.trim() ? `\`${inner}\`` : '(empty)';
}

/** A part of a message's value: fixed text the registry wrote, or text another party wrote (quoted by each format). */
type Part = string | { quoted: string };
const q = (value: string): Part => ({ quoted: oneLine(value) });

function lines(f: MessageFacts): Array<[string, Part[]]> {
  const rows: Array<[string, Part[]]> = [
    ['Approval', [f.approval_id]],
    ['Action', [q(f.action)]],
    ['Resource', [q(f.resource)]],
  ];
  for (const s of f.statements) rows.push([`Rule ${s.id}`, [s.statement === null ? '(rule not found)' : q(s.statement)]]);
  const by: Part[] = [q(f.requester)];
  if (f.on_behalf_of) by.push(' on behalf of ', q(f.on_behalf_of));
  if (f.requester_label) by.push(' (label: ', q(f.requester_label), ')');
  rows.push(['Requested by', by]);
  if (f.expires_at) rows.push(['Expires', [f.expires_at]]);
  return rows;
}

/** A value's parts as one format writes them: `fixed` for the registry's own text, `quoted` for the rest. */
const render = (parts: Part[], fixed: (s: string) => string, quoted: (s: string) => string) =>
  parts.map((p) => (typeof p === 'string' ? fixed(p) : quoted(p.quoted))).join('');

const plain = (parts: Part[]) => render(parts, (s) => s, defang);

/** The email: plain text and HTML (escaped), a subject on one line; decide in the console, never by replying. */
export function emailMessage(f: MessageFacts): { subject: string; text: string; html: string } {
  const rows = lines(f);
  const subject = oneLine(`${headline(f)}: ${defang(oneLine(f.action))} on ${defang(oneLine(f.resource))}`, 200);
  const text = [
    `${headline(f)}.`,
    '',
    ...rows.map(([k, v]) => `${k}: ${plain(v)}`),
    '',
    `Open it in the Arbiter console to decide: ${f.link}`,
    '',
    'This message carries no approve action: decisions are made in the console, signed in.',
  ].join('\n');
  const html = [
    '<!doctype html><html><body>',
    `<p>${escapeHtml(headline(f))}.</p>`,
    '<table>',
    ...rows.map(([k, v]) => `<tr><th align="left">${escapeHtml(k)}</th><td>${escapeHtml(plain(v))}</td></tr>`),
    '</table>',
    `<p><a href="${escapeHtml(f.link)}">Open it in the Arbiter console</a> to decide.</p>`,
    '<p>This message carries no approve action: decisions are made in the console, signed in.</p>',
    '</body></html>',
  ].join('\n');
  return { subject, text, html };
}

/** Slack incoming-webhook JSON: `text` (the notification's fallback) and `blocks`; no interactive element. */
export function slackMessage(f: MessageFacts): { text: string; blocks: object[] } {
  const rows = lines(f);
  const link = `<${f.link}|Open in the Arbiter console>`;
  const value = (parts: Part[]) => render(parts, escapeSlack, slackCode);
  return {
    text: `${escapeSlack(headline(f))}: ${value([q(f.action)])} on ${value([q(f.resource)])} (${f.approval_id}) ${link}`,
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: headline(f) } },
      { type: 'section', text: { type: 'mrkdwn', text: rows.map(([k, v]) => `*${escapeSlack(k)}:* ${value(v)}`).join('\n') } },
      { type: 'section', text: { type: 'mrkdwn', text: `${link} to decide.` } },
    ],
  };
}

/** A Microsoft Teams MessageCard: facts and one link to the console (OpenUri), no action that decides. */
export function teamsMessage(f: MessageFacts): object {
  return {
    '@type': 'MessageCard',
    '@context': 'https://schema.org/extensions',
    summary: escapeTeams(oneLine(`${headline(f)}: ${defang(oneLine(f.action))} on ${defang(oneLine(f.resource))}`, 200)),
    title: escapeTeams(headline(f)),
    sections: [
      { facts: lines(f).map(([name, v]) => ({ name: escapeTeams(name), value: render(v, escapeTeams, (s) => escapeTeams(defang(s))) })) },
    ],
    potentialAction: [{ '@type': 'OpenUri', name: 'Open in the Arbiter console', targets: [{ os: 'default', uri: f.link }] }],
  };
}
