import { LinkifyIt } from 'linkify-it';
import {
  chatWebhooksOf,
  consoleLink,
  defang,
  oneLine,
  emailMessage,
  emailRecipients,
  escapeSlack,
  escapeTeams,
  planNotifications,
  slackCode,
  readNotifiedApproval,
  slackMessage,
  teamsMessage,
  type MessageFacts,
  type NotifiedApproval,
  type RoutedPerson,
} from './approval-notifications';

const person = (id: string, over: Partial<RoutedPerson> = {}): RoutedPerson => ({
  id,
  kind: 'human',
  active: true,
  roles: [],
  email: `${id}@example.com`,
  approves_everywhere: true,
  approves_within: [],
  ...over,
});

const approval = (over: Partial<NotifiedApproval> = {}): NotifiedApproval => ({
  id: 'apr-1',
  flow: 'verdict',
  scope_id: null,
  action: 'payments.transfer',
  resource: 'acct-9',
  rule_ids: ['rul-1'],
  requester: 'agn-bot',
  on_behalf_of: null,
  requester_label: null,
  excluded: ['agn-bot'],
  candidate_deciders: ['role-finance'],
  expires_at: null,
  escalates_at: null,
  escalation_deciders: [],
  ...over,
});

const INJECTION = '<script>alert(1)</script> <https://evil.example|click> [click](https://evil.example) & <!channel> *bold*';

const facts = (over: Partial<MessageFacts> = {}): MessageFacts => ({
  reason: 'requested',
  approval_id: 'apr-1',
  action: INJECTION,
  resource: INJECTION,
  statements: [{ id: 'rul-1', statement: 'Transfers above 1000 EUR need finance' }],
  requester: 'agn-bot',
  on_behalf_of: 'hum-ann',
  requester_label: null,
  expires_at: '2026-12-01T00:00:00.000Z',
  link: 'https://console.example/console/approvals/verdict/apr-1',
  ...over,
});

describe('readNotifiedApproval', () => {
  it('reads a verdict approval: action, resource, the triggering rules, requester and on_behalf_of', () => {
    const a = readNotifiedApproval('verdict', {
      id: 'apr-v',
      intended_action: 'pay',
      intended_resource: 'acct',
      intended_parameters: { secret: 'never read' },
      triggers: [{ rule_id: 'rul-a' }, { rule_id: 'rul-b' }, { rule_id: 'rul-a' }],
      requester: 'agn-1',
      requester_principal: 'hum-1',
      candidate_deciders: ['role-x'],
      escalates_at: '2026-12-01T00:00:00Z',
      escalation_deciders: ['hum-boss'],
      expires_at: '2026-12-02T00:00:00Z',
    });
    expect(a).toMatchObject({
      id: 'apr-v',
      flow: 'verdict',
      scope_id: null,
      action: 'pay',
      resource: 'acct',
      rule_ids: ['rul-a', 'rul-b'],
      requester: 'agn-1',
      on_behalf_of: 'hum-1',
      excluded: ['agn-1', 'hum-1'],
      candidate_deciders: ['role-x'],
      escalation_deciders: ['hum-boss'],
      expires_at: '2026-12-02T00:00:00Z',
    });
    expect(a?.escalates_at?.toISOString()).toBe('2026-12-01T00:00:00.000Z');
    expect(JSON.stringify(a)).not.toContain('never read');
  });

  it('reads a registry approval: its trigger is the rule, its creator never decides', () => {
    const a = readNotifiedApproval('registry', {
      id: 'apr-r',
      scope_id: 'scp-1',
      trigger_id: 'inv-1',
      intended_action: 'ship it',
      requested_by: 'someone',
      created_by: 'agn-2',
      candidate_deciders: [],
    });
    expect(a).toMatchObject({
      flow: 'registry',
      scope_id: 'scp-1',
      resource: 'inv-1',
      rule_ids: ['inv-1'],
      requester: 'agn-2',
      requester_label: 'someone',
      excluded: ['agn-2'],
    });
    expect(a?.escalates_at).toBeNull();
  });

  it("names the authenticated creator as a registry approval's requester, never its free-text label", () => {
    const data = { id: 'apr-r', scope_id: 'scp-1', trigger_id: 'rul-1', intended_action: 'x', created_by: 'agn-2' };
    expect(readNotifiedApproval('registry', { ...data, requested_by: 'hum-boss' })).toMatchObject({
      requester: 'agn-2',
      requester_label: 'hum-boss',
    });
    // The default label is the creator's own id: nothing more to say.
    expect(readNotifiedApproval('registry', { ...data, requested_by: 'agn-2' })).toMatchObject({
      requester: 'agn-2',
      requester_label: null,
    });
    expect(readNotifiedApproval('verdict', { id: 'apr-v', requester: 'agn-1' })).toMatchObject({ requester_label: null });
  });

  it('answers null for data that is not an approval', () => {
    expect(readNotifiedApproval('registry', null)).toBeNull();
    expect(readNotifiedApproval('registry', [])).toBeNull();
    expect(readNotifiedApproval('verdict', { no: 'id' })).toBeNull();
  });
});

/** The scopes of the deciding rules of the approvals below. */
const PAY = ['scp-pay'];

describe('emailRecipients', () => {
  const people = [
    person('hum-a', { roles: ['role-finance'] }),
    person('hum-b', { roles: ['role-finance'], active: false }),
    person('hum-c', { roles: ['role-finance'], email: null }),
    person('agn-d', { roles: ['role-finance'], kind: 'agent' }),
    person('hum-e'),
    person('hum-f', { roles: ['role-finance'], email: 'HUM-A@example.com' }),
  ];

  it('resolves a role to its active human principals with an email, one message per address', () => {
    expect(emailRecipients(['role-finance'], people, [], PAY)).toEqual([{ principal_id: 'hum-a', email: 'hum-a@example.com' }]);
  });

  it('resolves a principal id to that principal', () => {
    expect(emailRecipients(['hum-e'], people, [], PAY).map((r) => r.principal_id)).toEqual(['hum-e']);
  });

  it('sends to whoever may decide when no decider is named', () => {
    const some = [person('hum-a', { approves_everywhere: false }), person('hum-e')];
    expect(emailRecipients([], some, [], PAY).map((r) => r.principal_id)).toEqual(['hum-e']);
  });

  it("mails nobody whose approving keys all lie in scopes other than the deciding rules', named or not", () => {
    const restricted = (id: string, within: string[][], roles: string[] = []) =>
      person(id, { approves_everywhere: false, approves_within: within, roles });
    const some = [
      restricted('hum-pay', [['scp-pay']], ['role-finance']),
      restricted('hum-hr', [['scp-hr']], ['role-finance']),
      restricted('hum-both', [['scp-hr'], ['scp-pay', 'scp-hr']]),
      restricted('hum-none', [], ['role-finance']),
      person('hum-all'),
    ];
    const ids = (deciders: string[], scopes: string[]) => emailRecipients(deciders, some, [], scopes).map((r) => r.principal_id);
    expect(ids([], ['scp-pay'])).toEqual(['hum-all', 'hum-both', 'hum-pay']);
    // A named decider that approves nowhere yet is told (it is to be given a key); hum-hr approves only elsewhere.
    expect(ids(['role-finance'], ['scp-pay'])).toEqual(['hum-none', 'hum-pay']);
    // Rules of two scopes: one key must hold both.
    expect(ids([], ['scp-pay', 'scp-hr'])).toEqual(['hum-all', 'hum-both']);
    // Scopes unknown: only who approves everywhere.
    expect(ids([], [])).toEqual(['hum-all']);
    expect(ids(['hum-hr', 'hum-all'], ['scp-pay'])).toEqual(['hum-all']);
  });

  it('never mails the requester', () => {
    expect(emailRecipients(['role-finance', 'hum-e'], people, ['hum-a', 'hum-e'], PAY).map((r) => r.principal_id)).toEqual(['hum-f']);
  });
});

describe('planNotifications', () => {
  const people = [person('hum-a', { roles: ['role-finance'] }), person('hum-boss')];
  const chat = [
    { url: 'https://hooks.example/slack', format: 'slack' as const },
    { url: 'https://hooks.example/teams', format: 'teams' as const },
    { url: 'https://hooks.example/slack', format: 'slack' as const },
  ];

  it('writes an email per decider and one message per chat webhook, due now', () => {
    expect(planNotifications(approval(), people, chat, true, PAY)).toEqual([
      { reason: 'requested', channel: 'email', recipient: 'hum-a@example.com', principal_id: 'hum-a', due: null },
      { reason: 'requested', channel: 'slack', recipient: 'https://hooks.example/slack', principal_id: null, due: null },
      { reason: 'requested', channel: 'teams', recipient: 'https://hooks.example/teams', principal_id: null, due: null },
    ]);
  });

  it('writes no email when email is off', () => {
    expect(planNotifications(approval(), people, [], false, PAY)).toEqual([]);
  });

  it('adds the escalation, due at escalates_at, to the escalation deciders only', () => {
    const at = new Date('2026-12-01T00:00:00Z');
    const plan = planNotifications(approval({ escalates_at: at, escalation_deciders: ['hum-boss'] }), people, chat.slice(0, 1), true, PAY);
    expect(plan.filter((p) => p.reason === 'escalated')).toEqual([
      { reason: 'escalated', channel: 'email', recipient: 'hum-boss@example.com', principal_id: 'hum-boss', due: at },
      { reason: 'escalated', channel: 'slack', recipient: 'https://hooks.example/slack', principal_id: null, due: at },
    ]);
  });

  it('writes no escalation without escalation deciders', () => {
    const plan = planNotifications(approval({ escalates_at: new Date() }), people, chat, true, PAY);
    expect(plan.some((p) => p.reason === 'escalated')).toBe(false);
  });
});

describe('chatWebhooksOf', () => {
  it('reads the well-formed chat webhooks of the settings', () => {
    expect(
      chatWebhooksOf({
        approval_notifications: { chat_webhooks: [{ url: 'https://a', format: 'slack' }, { url: 'https://b', format: 'irc' }, null] },
      }),
    ).toEqual([{ url: 'https://a', format: 'slack' }]);
    expect(chatWebhooksOf({})).toEqual([]);
    expect(chatWebhooksOf(null)).toEqual([]);
  });
});

describe('consoleLink', () => {
  it('links a verdict approval and a registry approval to their console pages', () => {
    expect(consoleLink('https://c.example/console/', 'verdict', 'apr-1', null)).toBe('https://c.example/console/approvals/verdict/apr-1');
    expect(consoleLink('https://c.example/console', 'registry', 'apr-2', 'scp-9')).toBe(
      'https://c.example/console/approvals/registry/scp-9/apr-2',
    );
  });
});

describe('messages', () => {
  it('email: names the approval, action, resource, rule statement, requester and link; HTML escaped; no parameters', () => {
    const m = emailMessage(facts());
    expect(m.subject).not.toMatch(/[\r\n]/);
    expect(m.text).toContain('Approval: apr-1');
    expect(m.text).toContain('Rule rul-1: Transfers above 1000 EUR need finance');
    expect(m.text).toContain('Requested by: agn-bot on behalf of hum-ann');
    expect(m.text).toContain('https://console.example/console/approvals/verdict/apr-1');
    expect(m.html).not.toContain('<script>');
    expect(m.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(m.html).not.toContain('<https://evil');
    expect(m.html.match(/<a /g)).toHaveLength(1);
    expect(m.html).toContain('<a href="https://console.example/console/approvals/verdict/apr-1">');
  });

  it('email: a line break in agent text cannot add a header line to the subject', () => {
    expect(emailMessage(facts({ action: 'pay\r\nBcc: eve@evil.example' })).subject).toBe(
      'Approval requested: pay Bcc: eve[@]evil[.]example on <script>alert(1)</script> <https[:]//evil[.]example|click> [click](https[:]//evil[.]example) & <!channel> *bold*',
    );
  });

  it('slack: agent text cannot make a link or a mention; the only link is the console; no interactive element', () => {
    const m = slackMessage(facts());
    const all = JSON.stringify(m);
    expect(all).not.toContain('<https://evil');
    expect(all).not.toContain('<!channel>');
    expect(all).not.toContain('<script>');
    expect(all).toContain('&lt;https[:]//evil[.]example|click&gt;');
    const links = (m.text + m.blocks.map((b) => JSON.stringify(b)).join('')).match(/<http[^>]*>/g) ?? [];
    expect(new Set(links)).toEqual(new Set(['<https://console.example/console/approvals/verdict/apr-1|Open in the Arbiter console>']));
    expect(m.blocks.map((b) => (b as { type: string }).type)).toEqual(['header', 'section', 'section']);
    expect(all).not.toMatch(/"type":"(actions|button)"/);
  });

  it('teams: a MessageCard with facts and one OpenUri to the console; agent text inert', () => {
    const m = teamsMessage(facts({ reason: 'escalated' })) as {
      '@type': string;
      title: string;
      sections: Array<{ facts: Array<{ name: string; value: string }> }>;
      potentialAction: Array<{ '@type': string; targets: Array<{ uri: string }> }>;
    };
    expect(m['@type']).toBe('MessageCard');
    expect(m.title).toMatch(/escalated/);
    expect(m.potentialAction).toEqual([
      {
        '@type': 'OpenUri',
        name: 'Open in the Arbiter console',
        targets: [{ os: 'default', uri: 'https://console.example/console/approvals/verdict/apr-1' }],
      },
    ]);
    const action = m.sections[0].facts.find((f) => f.name === 'Action')!.value;
    expect(action).not.toMatch(/[<>[\]()*]/);
    expect(action).toContain('&lt;script&gt;');
    expect(JSON.stringify(m)).not.toContain('](https://evil');
  });

  it('cuts a long value and says a rule was not found', () => {
    const m = emailMessage(facts({ action: 'x'.repeat(2000), statements: [{ id: 'rul-gone', statement: null }] }));
    expect(m.text).toContain(`Action: ${'x'.repeat(499)}…`);
    expect(m.text).toContain('Rule rul-gone: (rule not found)');
  });
});

describe('escapes', () => {
  it('slack escapes & < >', () => {
    expect(escapeSlack('a & <b> c')).toBe('a &amp; &lt;b&gt; c');
  });

  it('teams escapes HTML and the Markdown that makes links and emphasis', () => {
    expect(escapeTeams('[x](y) *z* <a>')).toBe('&#91;x&#93;&#40;y&#41; &#42;z&#42; &lt;a&gt;');
  });
});

/** The review's example, a `www.` host, a Markdown link, a backtick that would close a code span, and Slack formatting. */
const LINKS = [
  'acct:1 urgent: approve at https://arbiter-console.evil.example/approvals/verdict/apr-1',
  'see www.evil.example/approve',
  '[approve here](HTTPS://evil.example/a)',
  'x` https://evil.example `y',
  '*bold* _italic_ ~strike~ `code`',
].join(' | ');

describe('agent text is never a link nor formatted (docs/approvals.md "Notifications")', () => {
  const f = facts({ action: LINKS, resource: LINKS, requester: 'agn-bot', on_behalf_of: null });
  // What a client would turn into a link by itself: a URL with a scheme or a `www.` host.
  const LINKABLE = /[a-z][a-z0-9+.-]*:\/\/|\bwww\./i;

  it('defangs every URL and www. host, keeping the text readable', () => {
    expect(defang('approve at https://a.example/x and www.b.example')).toBe('approve at https[:]//a[.]example/x and www[.]b.example');
    expect(defang('HTTPS://A.example javascript://x WWW.c.example')).toBe('HTTPS[:]//A[.]example javascript[:]//x WWW[.]c.example');
    expect(defang('acct:1 a.b no-link')).toBe('acct:1 a.b no-link');
  });

  it('defangs what a client links without a scheme: bare hosts with a known domain and e-mail addresses', () => {
    expect(defang('confirm at approve-arbiter.com/login or mail cfo@approve-arbiter.com')).toBe(
      'confirm at approve-arbiter[.]com/login or mail cfo[@]approve-arbiter[.]com',
    );
    expect(defang('https://pay.example.com/x')).toBe('https[:]//pay[.]example[.]com/x');
    // Action names and resources read as they are.
    expect(defang('bank.transfer on acct:eu/4471 payments.refund')).toBe('bank.transfer on acct:eu/4471 payments.refund');
    const linkify = new LinkifyIt();
    for (const text of ['evil.io', 'a@b.co', 'x.y.z.net/p?q=1', 'WWW.c.com', 'http://1.2.3.4/', 'mailto:a@b.org', 'go.dev and ftp://f.org'])
      expect({ text, links: linkify.match(defang(text)) }).toEqual({ text, links: null });
  });

  it('email: the only URL in the text, the HTML and the subject is the console link', () => {
    const m = emailMessage(f);
    expect(m.text).toContain('acct:1 urgent: approve at https[:]//arbiter-console[.]evil[.]example/approvals/verdict/apr-1');
    expect(m.text).toContain('www[.]evil.example/approve');
    for (const part of [m.text, m.html]) expect(part.replaceAll(f.link, '')).not.toMatch(LINKABLE);
    expect(m.subject).not.toMatch(LINKABLE);
    expect(m.html.match(/<a /g)).toHaveLength(1);
  });

  it('slack: each agent value is one inline code span a backtick cannot close; no URL but the console link', () => {
    const m = slackMessage(f);
    const facts = (m.blocks[1] as { text: { text: string } }).text.text;
    const action = facts.split('\n').find((l) => l.startsWith('*Action:*'))!;
    // One span: exactly two backticks, around the whole value.
    expect(action).toMatch(/^\*Action:\* `[^`]+`$/);
    expect(action).toContain('x\u02cb https[:]//evil[.]example \u02cby');
    expect(action).toContain('*bold* _italic_ ~strike~ \u02cbcode\u02cb');
    expect(m.text).toMatch(/^Approval requested: `[^`]+` on `[^`]+` \(apr-1\) <https:\/\/console\.example/);
    expect(facts).toContain('*Requested by:* `agn-bot`');
    const everything = (m.text + JSON.stringify(m.blocks)).replaceAll(f.link, '');
    expect(everything).not.toMatch(LINKABLE);
  });

  it('shows format characters as their code point and reads other host full stops as dots, so no host hides from defang', () => {
    const hidden = 'details at evil.com\u200b/invoice or https:\u200b//evil.com/pay, x\u2060//evil.com, evil\uff0ecom, evil\u3002com';
    const shown = oneLine(hidden);
    expect(shown).toBe('details at evil.com[U+200B]/invoice or https:[U+200B]//evil.com/pay, x[U+2060]//evil.com, evil.com, evil.com');
    expect(defang(shown)).not.toMatch(/evil\.com/);
    // A right-to-left override cannot make `amount ‮0001 RUE‬` read `amount EUR 1000`.
    expect(oneLine('amount \u202e0001 RUE\u202c')).toBe('amount [U+202E]0001 RUE[U+202C]');
    // In every channel and the subject alike.
    const m = facts({ action: hidden, resource: 'acct:\u202eevil.com', requester: 'agn-bot', on_behalf_of: null });
    const mail = emailMessage(m);
    for (const text of [mail.subject, mail.text, mail.html, JSON.stringify(slackMessage(m)), JSON.stringify(teamsMessage(m))]) {
      expect(text).not.toMatch(/[\u200b\u2060\u202e\u202c\uff0e\u3002]/);
      expect(text).not.toMatch(/evil\.com/);
    }
  });

  it('slack: an empty value is not an empty span', () => {
    expect(slackCode('')).toBe('(empty)');
    expect(slackCode('a<b>&')).toBe('`a&lt;b&gt;&amp;`');
  });

  it('teams: no URL but the console link, no Markdown link, emphasis or code', () => {
    const m = teamsMessage(f) as { summary: string; sections: Array<{ facts: Array<{ name: string; value: string }> }> };
    const action = m.sections[0].facts.find((x) => x.name === 'Action')!.value;
    expect(action).not.toMatch(/[[\]()*_`~]/);
    // Shown as `https[:]//…` (the brackets are written as entities, like every Markdown character).
    expect(action).toContain('https&#91;:&#93;//arbiter-console&#91;.&#93;evil&#91;.&#93;example');
    expect(JSON.stringify(m.sections)).not.toMatch(LINKABLE);
    expect(m.summary).not.toMatch(LINKABLE);
  });
});

describe('requester of a registry approval (docs/approvals.md "Notifications")', () => {
  const f = facts({ requester: 'agn-2', on_behalf_of: null, requester_label: 'CFO (approved by phone) https://evil.example `x`' });

  it('email: "Requested by" is the authenticated principal, the label after it, quoted', () => {
    const m = emailMessage(f);
    expect(m.text).toContain('Requested by: agn-2 (label: CFO (approved by phone) https[:]//evil[.]example `x`)');
    expect(m.html).toContain('<td>agn-2 (label: CFO (approved by phone) https[:]//evil[.]example `x`)</td>');
  });

  it('slack and teams: the label is quoted like other agent text', () => {
    const slack = (slackMessage(f).blocks[1] as { text: { text: string } }).text.text;
    expect(slack).toContain('*Requested by:* `agn-2` (label: `CFO (approved by phone) https[:]//evil[.]example \u02cbx\u02cb`)');
    const teams = teamsMessage(f) as { sections: Array<{ facts: Array<{ name: string; value: string }> }> };
    const by = teams.sections[0].facts.find((x) => x.name === 'Requested by')!.value;
    expect(by).toMatch(/^agn-2 &#40;label: CFO &#40;approved by phone&#41; https&#91;:&#93;\/\/evil&#91;\.&#93;example/);
  });

  it('shows no label when there is none', () => {
    expect(emailMessage(facts({ requester: 'agn-2', on_behalf_of: null })).text).toMatch(/Requested by: agn-2$/m);
  });
});
