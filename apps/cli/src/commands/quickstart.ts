// `arbiter quickstart` (docs/cli.md "Quickstart", README "Quick start"): with the platform admin key `npm start`
// printed, a demo tenant ready for a first check: an agent, a human approver, a tenant admin, their keys, a scope
// and three example rules (allow, block, approval). Everything is found by name first, so a second run reuses the
// tenant, its principals, scope and rules, and the keys of the quickstart file when they still work; keys of the
// demo principals that the file does not hold are revoked, so exactly the file's keys work. The keys go to the
// quickstart file (mode 0600), never to the terminal.
import path from 'node:path';
import { ArbiterError, createRegistryClient, createVerdictClient, type RegistryClient, type Rule, type RuleBody } from '@arbiter/client';
import type { CommandContext, ServiceFlags } from '../context';
import { CliError, EXIT } from '../io';
import { formatEnvFile, parseEnvFile, QUICKSTART_FILE } from '../settings';

export interface QuickstartOptions extends ServiceFlags {
  adminKey?: string;
  slug: string;
  envFile?: string;
  verdictUrl?: string;
  ledgerUrl?: string;
}

/** The demo's scope: the operations of region eu. */
export const QUICKSTART_SCOPE = { name: 'quickstart', selector: { region: 'eu' } } as const;
export const QUICKSTART_SCOPE_SCHEMA = { fields: { region: { allowed_values: ['eu', 'us'] } } };
const APPROVER_ROLE = 'role-finance';

/** The three example rules: the bank of examples/mcp (docs/agents.md), one of each outcome. */
export const QUICKSTART_RULES: (RuleBody & { directive: string })[] = [
  { directive: 'Balance reads are allowed', severity: 'ALLOW', applies_to: { actions: ['bank.balance'] } },
  {
    directive: 'No transfers to offshore accounts',
    severity: 'MANDATORY',
    applies_to: { actions: ['bank.transfer'] },
    conditions: [{ field: 'to', op: 'starts_with', value: 'offshore-' }],
  },
  {
    directive: 'Transfers above 1,000 EUR need approval from finance',
    severity: 'REQUIRES_APPROVAL',
    applies_to: { actions: ['bank.transfer'] },
    conditions: [{ field: 'amount', op: 'gt', value: 1000 }],
    // A number, or the check asks for one (422 insufficient_context): "5000" as a string would make the condition
    // false and the transfer allowed without approval.
    requires: [{ field: 'amount', type: 'number', reason: 'the amount in EUR, a number' }],
    deciders: [APPROVER_ROLE],
  },
] as (RuleBody & { directive: string })[];

/** The three checks the quickstart suggests, with the verdict each gets. */
export const QUICKSTART_CHECKS = [
  { args: ['--action', 'bank.balance', '--resource', 'acct:acct-1', '--scope', 'region=eu'], verdict: 'allowed' },
  {
    args: [
      '--action',
      'bank.transfer',
      '--resource',
      'acct:acct-1',
      '--scope',
      'region=eu',
      '--param',
      'to=offshore-7',
      '--param',
      'amount=50',
    ],
    verdict: 'blocked',
  },
  {
    args: [
      '--action',
      'bank.transfer',
      '--resource',
      'acct:acct-1',
      '--scope',
      'region=eu',
      '--param',
      'to=acct-2',
      '--param',
      'amount=5000',
    ],
    verdict: 'approval_required',
  },
] as const;

type Permission = 'check' | 'read' | 'approve' | 'manage_rules' | 'admin';

/** Who the demo tenant holds, and the key each one gets in the file. */
/** `console`: the permissions of the person's console sessions (docs/identity.md "Console sign-in"). */
const PRINCIPALS = {
  agent: { kind: 'agent', name: 'quickstart-agent', roles: [] as string[], console: [] as Permission[] },
  approver: { kind: 'human', name: 'quickstart-approver', roles: [APPROVER_ROLE], console: ['read', 'approve'] as Permission[] },
  admin: { kind: 'human', name: 'quickstart-admin', roles: [] as string[], console: ['admin'] as Permission[] },
} as const;
const KEYS: { variable: string; holder: keyof typeof PRINCIPALS; permissions: Permission[] }[] = [
  { variable: 'ARBITER_AGENT_KEY', holder: 'agent', permissions: ['check', 'read'] },
  { variable: 'ARBITER_APPROVER_KEY', holder: 'approver', permissions: ['approve', 'read'] },
  { variable: 'ARBITER_RULES_KEY', holder: 'admin', permissions: ['manage_rules', 'read'] },
  { variable: 'ARBITER_TENANT_ADMIN_KEY', holder: 'admin', permissions: ['admin'] },
];

const samePermissions = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((p) => b.includes(p));

/** The quickstart file's path: --env-file, else <data dir>/quickstart.env. */
function envFileOf(ctx: CommandContext, opts: QuickstartOptions): string {
  if (opts.envFile) return path.resolve(opts.envFile);
  if (ctx.files.dir) return path.join(ctx.files.dir, QUICKSTART_FILE);
  throw new CliError(
    'no data directory to write the quickstart file to (this CLI does not run from a clone): pass --env-file <file> or set ARBITER_DATA_DIR',
  );
}

export async function quickstart(ctx: CommandContext, opts: QuickstartOptions): Promise<number> {
  const adminKey = opts.adminKey ?? ctx.io.env.ARBITER_ADMIN_KEY;
  if (!adminKey)
    throw new CliError('quickstart needs the platform admin key npm start printed: set ARBITER_ADMIN_KEY (or pass --admin-key)');
  if (!/^[a-z0-9][a-z0-9-]*$/.test(opts.slug)) throw new CliError(`--slug ${opts.slug}: lowercase letters, digits and dashes`);
  // The quickstart file is what this command writes: its URLs are never read back here.
  const urls = {
    registry: ctx.stackUrl('registry', opts.url),
    verdict: ctx.stackUrl('verdict', opts.verdictUrl),
    ledger: ctx.stackUrl('ledger', opts.ledgerUrl),
  };
  const file = envFileOf(ctx, opts);
  const previous = parseEnvFile(await ctx.io.readFile(file).catch(() => ''));
  const registryAs = (key: string, keyFrom: string) => {
    ctx.using('registry', urls.registry, keyFrom);
    return createRegistryClient({ baseUrl: urls.registry, apiKey: key, fetch: ctx.io.fetch });
  };
  const admin = registryAs(adminKey, opts.adminKey ? 'from --admin-key' : 'from ARBITER_ADMIN_KEY');

  // The tenant, by slug.
  ctx.progress(`finding tenant ${opts.slug} at ${urls.registry}`);
  let tenant = (await admin.all((cursor) => admin.listTenants({ cursor, limit: 1000 }))).find((t) => t.slug === opts.slug);
  const tenantCreated = !tenant;
  tenant ??= await admin.createTenant({
    slug: opts.slug,
    name: 'Arbiter quickstart',
    settings: { scope_schema: QUICKSTART_SCOPE_SCHEMA },
  } as Parameters<RegistryClient['createTenant']>[0]);
  const tenantId = tenant.id;

  // Its principals, by kind and name; an existing one is activated and given its role again if needed.
  const existing = await admin.all((cursor) => admin.listPrincipals({ cursor, limit: 1000, tenant_id: tenantId }));
  const principals = {} as Record<keyof typeof PRINCIPALS, string>;
  for (const [role, spec] of Object.entries(PRINCIPALS) as [keyof typeof PRINCIPALS, (typeof PRINCIPALS)[keyof typeof PRINCIPALS]][]) {
    const found = existing.find((p) => p.kind === spec.kind && p.name === spec.name);
    if (!found) {
      principals[role] = (
        await admin.createPrincipal({
          kind: spec.kind,
          name: spec.name,
          roles: [...spec.roles],
          tenant_id: tenantId,
          ...(spec.console.length ? { console_permissions: [...spec.console] } : {}),
        })
      ).id;
      continue;
    }
    principals[role] = found.id;
    const missingRoles = spec.roles.filter((r) => !found.roles.includes(r));
    const missingConsole = spec.console.filter((p) => !found.console_permissions.includes(p));
    if (found.status !== 'active' || missingRoles.length || missingConsole.length) {
      await admin.updatePrincipal(found.id, {
        ...(found.status !== 'active' ? { active: true } : {}),
        ...(missingRoles.length ? { roles: [...found.roles, ...missingRoles] } : {}),
        ...(missingConsole.length ? { console_permissions: [...found.console_permissions, ...missingConsole] } : {}),
      });
    }
  }

  // Keys: the file's, where each still resolves (whoami) to an active key of its holder with its permissions; else new ones.
  const activeKeys = (await admin.all((cursor) => admin.listApiKeys({ cursor, limit: 1000, tenant_id: tenantId }))).filter(
    (k) => k.status === 'active',
  );
  const keys: Record<string, string> = {};
  const kept = new Set<string>();
  let keysCreated = 0;
  for (const spec of KEYS) {
    const candidate = previous.ARBITER_TENANT === tenantId ? previous[spec.variable] : undefined;
    const keyId = candidate ? await keyIdOf(ctx, urls.verdict, candidate) : undefined;
    const live =
      keyId &&
      activeKeys.find(
        (k) =>
          k.id === keyId &&
          k.principal_id === principals[spec.holder] &&
          samePermissions(k.permissions, spec.permissions) &&
          !k.scope_ids.length,
      );
    if (live && candidate) {
      keys[spec.variable] = candidate;
      kept.add(live.id);
      continue;
    }
    const created = await admin.createApiKey({ principal_id: principals[spec.holder], permissions: spec.permissions, tenant_id: tenantId });
    keys[spec.variable] = created.key;
    kept.add(created.id);
    keysCreated += 1;
  }
  // Exactly the file's keys work: others of the demo principals (an earlier run whose file was lost) are revoked.
  const holders = new Set(Object.values(principals));
  let revoked = 0;
  for (const k of activeKeys) {
    if (holders.has(k.principal_id) && !kept.has(k.id)) {
      await admin.revokeApiKey(k.id);
      revoked += 1;
    }
  }

  // The scope (tenant admin: creating a scope is a tenant-level act) and its rules (manage_rules), by name and directive.
  const tenantAdmin = registryAs(keys.ARBITER_TENANT_ADMIN_KEY!, 'the quickstart tenant admin key');
  let scope = (await tenantAdmin.all((cursor) => tenantAdmin.listScopes({ cursor, limit: 1000 }))).find(
    (s) => s.name === QUICKSTART_SCOPE.name,
  );
  const scopeCreated = !scope;
  scope ??= await tenantAdmin.createScope({
    name: QUICKSTART_SCOPE.name,
    selector: { ...QUICKSTART_SCOPE.selector },
    description: 'Created by arbiter quickstart: the example rules of the bank (examples/mcp).',
  });
  const rulesClient = registryAs(keys.ARBITER_RULES_KEY!, 'the quickstart rules key');
  const active: Rule[] = await rulesClient.listRules(scope.id);
  const rules: { id: string; directive: string; severity: string; created: boolean }[] = [];
  for (const body of QUICKSTART_RULES) {
    const found = active.find((r) => r.directive === body.directive);
    const rule = found ?? (await rulesClient.createRule(scope.id, body));
    rules.push({ id: rule.id, directive: body.directive, severity: body.severity as string, created: !found });
  }

  const values: Record<string, string> = {
    ARBITER_REGISTRY_URL: urls.registry,
    ARBITER_VERDICT_URL: urls.verdict,
    ARBITER_LEDGER_URL: urls.ledger,
    ARBITER_TENANT: tenantId,
    ARBITER_TENANT_SLUG: tenant.slug,
    ARBITER_API_KEY: keys.ARBITER_AGENT_KEY!,
    ARBITER_AGENT_KEY: keys.ARBITER_AGENT_KEY!,
    ARBITER_APPROVER_KEY: keys.ARBITER_APPROVER_KEY!,
    ARBITER_RULES_KEY: keys.ARBITER_RULES_KEY!,
    ARBITER_TENANT_ADMIN_KEY: keys.ARBITER_TENANT_ADMIN_KEY!,
    ARBITER_SCOPE_ID: scope.id,
    ARBITER_AGENT_ID: principals.agent,
    ARBITER_APPROVER_ID: principals.approver,
    ARBITER_TENANT_ADMIN_ID: principals.admin,
  };
  const text = envFileText(
    [
      `Written by arbiter quickstart for the demo tenant ${tenant.slug} (${tenantId}) at ${urls.registry}; run it again to refresh.`,
      'Secret (API keys): mode 0600, never commit it. arbiter reads it when no key is given (docs/cli.md "Configuration").',
      'In a shell: set -a; . <this file>; set +a',
    ],
    values,
  );
  await ctx.io.writeFile(file, text, { secret: true }).catch((err: Error) => {
    throw new CliError(
      `the demo tenant is ready, but ${file} could not be written (${err.message}); run arbiter quickstart again with --env-file <file>`,
      EXIT.failed,
    );
  });

  // The approver's way into the console: a one-time link (one use, 10 minutes), made afresh on every run.
  const consoleLink = await admin.createConsoleLink(principals.approver);
  const checks = QUICKSTART_CHECKS.map((c) => ({ command: `arbiter check ${c.args.join(' ')}`, verdict: c.verdict }));
  const summary = {
    tenant: { id: tenantId, slug: tenant.slug, created: tenantCreated },
    principals: { agent: principals.agent, approver: principals.approver, admin: principals.admin },
    keys: { created: keysCreated, reused: KEYS.length - keysCreated, revoked },
    scope: { id: scope.id, name: scope.name, selector: scope.selector, created: scopeCreated },
    rules,
    env_file: file,
    console_link: consoleLink,
    urls,
    checks,
  };
  const width = Math.max(...checks.map((c) => c.command.length));
  const human = [
    `demo tenant ${tenant.slug} (${tenantId}) ${tenantCreated ? 'created' : 'reused'} at ${urls.registry}`,
    `  agent     ${principals.agent}  key ARBITER_API_KEY (= ARBITER_AGENT_KEY): check, read`,
    `  approver  ${principals.approver}  ${APPROVER_ROLE}; key ARBITER_APPROVER_KEY: approve, read; console: read, approve`,
    `  admin     ${principals.admin}  keys ARBITER_TENANT_ADMIN_KEY: admin; ARBITER_RULES_KEY: manage_rules, read; console: admin`,
    `  keys      ${keysCreated} created, ${KEYS.length - keysCreated} reused${revoked ? `, ${revoked} others of these principals revoked` : ''}`,
    `  scope     ${scope.id}  ${scope.name}, selector ${JSON.stringify(scope.selector)} (${scopeCreated ? 'created' : 'reused'})`,
    ...rules.map((r) => `  rule      ${r.id}  ${r.severity.padEnd(17)} ${r.directive} (${r.created ? 'created' : 'reused'})`),
    `wrote ${file} (mode 0600): the URLs, ids and keys; arbiter uses its keys when you give none`,
    '',
    'Try these checks (exit code 0 only for allowed):',
    ...checks.map((c) => `  ${c.command.padEnd(width)}   # ${c.verdict}`),
    '',
    `The approver's console: ${consoleLink.url}`,
    '  (a sign-in link: one use, 10 minutes; arbiter console link --principal <hum-…> makes another)',
    '',
    "Next: the approval loop. Request an approval for the third check's consultation, decide it as the approver,",
    'and the same check is allowed once:',
    '  arbiter approvals request cns-…          # prints apr-…',
    '  arbiter approvals decide apr-… --approve  # with the approver key of the file',
    'Then Arbiter in front of an MCP server, on this tenant: docs/agents.md "Five minutes".',
  ].join('\n');
  ctx.print(summary, human);
  return EXIT.ok;
}

/** The file's text; a value a shell would read otherwise (a URL with a quote, say) is a usage error, not a crash. */
function envFileText(header: string[], values: Record<string, string>): string {
  try {
    return formatEnvFile(header, values);
  } catch (err) {
    throw new CliError((err as Error).message);
  }
}

/** The key id a key resolves to at the verdict gateway, or undefined when the gateway does not know it. */
async function keyIdOf(ctx: CommandContext, verdictUrl: string, key: string): Promise<string | undefined> {
  try {
    return (await createVerdictClient({ baseUrl: verdictUrl, apiKey: key, fetch: ctx.io.fetch }).whoami()).key_id;
  } catch (err) {
    if (err instanceof ArbiterError && (err.status === 401 || err.status === 403)) return undefined;
    throw err;
  }
}
