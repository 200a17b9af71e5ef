// The `arbiter` command line (docs/cli.md). runCli parses, runs one command and returns its exit
// code; it never throws and never calls process.exit, so tests run it in-process.
import { Argument, Command, CommanderError, Option } from 'commander';
import { InputError } from '@arbiter/client';
import * as admin from './commands/admin';
import { auditConsultationsCommand } from './commands/audit';
import { archiveVerifyCommand } from './commands/archive';
import { checkCommand } from './commands/check';
import { exportEvidence } from './commands/evidence';
import { ROTATABLE, rotateKeys } from './commands/keys';
import { mcpProxy } from './commands/mcp-proxy';
import { quickstart } from './commands/quickstart';
import * as scopes from './commands/scopes';
import { exportTrust, extendTrustCommand } from './commands/trust';
import { applyRules, exportRules, planRules, testRules } from './commands/rules';
import {
  verifyBundleCommand,
  verifyConsultationCommand,
  verifyEvidenceCommand,
  verifyStandardWebhookCommand,
  verifyVerdictCommand,
  verifyWebhookCommand,
} from './commands/verify';
import { completionScript, SHELLS, type Shell } from './completion';
import { CommandContext, loadSettingsFiles, serviceFailure, type GlobalOptions, type ServiceFlags } from './context';
import { CliError, EXIT, type Io } from './io';
import { version } from '../package.json';

const collect = (value: string, previous: string[] = []) => [...previous, value];

const serviceOptions = (cmd: Command, service?: string) =>
  cmd
    .option('--url <url>', `${service ?? 'that'} service's base URL (env ARBITER_${service?.toUpperCase() ?? '<SERVICE>'}_URL)`)
    .option(
      '--api-key <key>',
      `API key (better: env ARBITER_${service?.toUpperCase() ?? '<SERVICE>'}_API_KEY or ARBITER_API_KEY, since the command line shows in ps and the shell's history)`,
    );

export function buildProgram(io: Io, setExit: (code: number) => void): Command {
  const program = new Command('arbiter')
    .description(
      'Arbiter operator and auditor tool: a demo tenant in one command (quickstart), checks, scopes and approvals, rotate signing keys, verify verdicts, consultations, ledger bundles, webhooks and evidence packs, audit the completeness of consultations, keep rules as code',
    )
    .version(version)
    .option('--json', 'machine-readable JSON on stdout')
    .option('-q, --quiet', 'no progress messages on stderr')
    .showHelpAfterError('(arbiter --help for usage)')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout(s), writeErr: (s) => io.stderr(s) });

  // Each action builds its context from the global flags and the clone's stack and quickstart files, and
  // reports its own exit code; a service's failure names the URL it was called at. Commander calls actions
  // with (…arguments, options, command).
  const run =
    (fn: (ctx: CommandContext, ...args: never[]) => Promise<number>) =>
    async (...args: unknown[]) => {
      const cmd = args.at(-1) as Command;
      const ctx = new CommandContext(io, cmd.optsWithGlobals<GlobalOptions>(), await loadSettingsFiles(io));
      try {
        setExit(await (fn as (ctx: CommandContext, ...a: unknown[]) => Promise<number>)(ctx, ...args.slice(0, -1)));
      } catch (err) {
        throw ctx.failure(err) ?? err;
      }
    };

  program
    .command('quickstart')
    .description(
      'a demo tenant against a running stack (npm start), with the platform admin key it printed: an agent, an approver, keys, a scope and three example rules; writes them to .data/quickstart.env and prints three checks to try. Run again, it reuses the tenant',
    )
    .option('--url <url>', "the registry's base URL (env ARBITER_REGISTRY_URL, else the stack file of npm start)")
    .option('--admin-key <key>', 'the platform admin key npm start printed (better: env ARBITER_ADMIN_KEY)')
    .option('--slug <slug>', "the demo tenant's slug", 'quickstart')
    .option('--env-file <file>', 'where to write the URLs, ids and keys (default: .data/quickstart.env of the clone)')
    .option('--verdict-url <url>', "the verdict service's base URL (env ARBITER_VERDICT_URL)")
    .option('--ledger-url <url>', "the ledger's base URL (env ARBITER_LEDGER_URL)")
    .action(run((ctx, opts: Parameters<typeof quickstart>[1]) => quickstart(ctx, opts)));

  serviceOptions(
    program
      .command('check')
      .description(
        'ask the verdict gateway about an operation (POST /<tenant>/v1/check) and print the verdict; exit 0 when it may run (allowed, observe), 1 when not (blocked, approval_required, any other verdict, a refusal)',
      )
      .requiredOption('--action <action>', 'the action, e.g. bank.transfer')
      .requiredOption('--resource <resource>', 'the resource, e.g. acct:acct-1')
      .option('--scope <key=value|json>', 'a scope field (repeatable), e.g. region=eu', collect)
      .option(
        '--param <key=value>',
        'a parameter (repeatable; a dotted key nests; the value is JSON when it parses: 5000, true, "5000")',
        collect,
      )
      .option('--parameters <json>', 'the parameters as one JSON object (--param entries go over it)')
      .option('--context <json>', 'the context Facts as a JSON object')
      .option('--on-behalf-of <principal>', 'the human the agent acts for')
      .option('--explain', 'ask for the explanation of a blocked or approval_required verdict')
      .option('--tenant <id>', "the tenant (default ARBITER_TENANT or the key's own)"),
    'verdict',
  ).action(run((ctx, opts: Parameters<typeof checkCommand>[1]) => checkCommand(ctx, opts)));

  const scopeCmd = program
    .command('scopes')
    .description('scopes of the registry: which operations a scope\'s rules govern (docs/registry.md "Scopes")');
  serviceOptions(scopeCmd.command('list').description('every scope the key sees'), 'registry').action(
    run((ctx, opts: ServiceFlags) => scopes.listScopes(ctx, opts)),
  );
  serviceOptions(
    scopeCmd
      .command('create')
      .description('create a scope (admin of the tenant)')
      .argument('<name>', 'unique in the tenant')
      .option('--selector <key=value|json>', 'a selector field (repeatable), e.g. region=eu; none: the whole tenant', collect)
      .option('--description <text>', 'what the scope is for'),
    'registry',
  ).action(run((ctx, name: string, opts: scopes.ScopeCreateOptions) => scopes.createScope(ctx, name, opts)));

  const approvals = program
    .command('approvals')
    .description('one-shot approvals of the verdict gateway (docs/approvals.md "The agent\'s loop"): request, list, get, decide');
  serviceOptions(
    approvals
      .command('request')
      .description("ask for an approval of an approval_required consultation (the key of the consultation's caller)")
      .argument('<consultation_id>', 'cns-…')
      .option('--notes <text>', 'requester notes for the decider'),
    'verdict',
  ).action(run((ctx, id: string, opts: ServiceFlags & { notes?: string }) => scopes.requestApproval(ctx, id, opts)));
  serviceOptions(
    approvals
      .command('list')
      .description('approvals of the tenant')
      .option('--status <status>', 'pending, approved, rejected')
      .option('--assignee <role-or-principal>', 'only those this role or principal may decide'),
    'verdict',
  ).action(run((ctx, opts: ServiceFlags & { status?: string; assignee?: string }) => scopes.listApprovals(ctx, opts)));
  serviceOptions(approvals.command('get').description('one approval').argument('<approval_id>', 'apr-…'), 'verdict').action(
    run((ctx, id: string, opts: ServiceFlags) => scopes.getApproval(ctx, id, opts)),
  );
  serviceOptions(
    approvals
      .command('decide')
      .description("approve or reject (a decider's key: approve permission and one of the candidate roles)")
      .argument('<approval_id>', 'apr-…')
      .option('--approve', 'approve: the same operation may run once')
      .option('--reject', 'reject')
      .option('--notes <text>', 'decider notes')
      .option('--grant <json>', 'with --approve: an override for later operations, {"applies_to_scope": {…}, "expires_at": "…"}'),
    'verdict',
  ).action(run((ctx, id: string, opts: scopes.DecideOptions) => scopes.decideApproval(ctx, id, opts)));

  const keys = program.command('keys').description('signing keys of the services');
  serviceOptions(
    keys
      .command('rotate')
      .description(
        "rotate a service's signing key: verdict (per tenant, ES256 verdicts), ledger (Ed25519 bundles), registry (P-256 webhooks)",
      )
      .argument('<service>', ROTATABLE.join('|'))
      .addOption(
        new Option('--mode <mode>', "scheduled: this year's key, refused when it exists; emergency: a new key at once")
          .choices(['scheduled', 'emergency'])
          .default('scheduled'),
      )
      .option('--tenant <id>', "verdict: the tenant (id or slug; default ARBITER_TENANT or the key's own)"),
  ).action(run((ctx, service: string, opts: Parameters<typeof rotateKeys>[2]) => rotateKeys(ctx, service, opts)));

  const trust = program
    .command('trust')
    .description('the keys you hold: every verify takes them with --trust <file> (docs/evidence.md "Trusted keys")');
  serviceOptions(
    trust
      .command('export')
      .description(
        "write a trust file: the tenant's verdict key set and the ledger's keys, as the services publish them now (public: no API key with --tenant); run it once over a channel you trust and compare the printed thumbprints",
      )
      .requiredOption('--out <file>', 'where to write the trust file')
      .option('--tenant <id>', "the tenant, tnt-… or slug (default ARBITER_TENANT or the key's own)")
      .option('--ledger-url <url>', "the ledger's base URL (env ARBITER_LEDGER_URL)"),
    'verdict',
  ).action(run((ctx, opts: Parameters<typeof exportTrust>[1]) => exportTrust(ctx, opts)));
  serviceOptions(
    trust
      .command('extend')
      .description(
        "add the keys made since: the ledger's transition statements and the tenant's keys stream, accepted only where keys of the file vouch for them (a ledger key with read of the tenant); writes nothing and exits 1 when the history does not verify",
      )
      .argument('<trust-file>', 'a file written by `arbiter trust export` (or extend)')
      .option('--out <file>', 'where to write the extended file (default: over the given one)'),
    'ledger',
  ).action(run((ctx, file: string, opts: Parameters<typeof extendTrustCommand>[2]) => extendTrustCommand(ctx, file, opts)));

  const verify = program
    .command('verify')
    .description(
      'check artifacts offline; exit 0 when valid, 1 when a check fails, 3 when no check failed but the keys were not yours (no --trust)',
    );
  verify
    .command('verdict')
    .description("a signed verdict (compact JWS) against the tenant's key set you hold")
    .argument('<jws>', 'the compact JWS, or a file holding it, or - for stdin')
    .option('--trust <file>', "your trust file (arbiter trust export): the tenant's keys, and the tenant the verdict must be of")
    .option('--jwks <file|url>', "the tenant's key set (GET /v1/tenants/<slug>/jwks), instead of --trust")
    .option('--at <time>', 'judge exp at this ISO 8601 instant instead of now')
    .option('--allow-expired', 'report a passed exp instead of failing (historical evidence)')
    .option('--tenant <id>', 'the tnt- id the verdict must belong to')
    .action(run((ctx, jws: string, opts: Parameters<typeof verifyVerdictCommand>[2]) => verifyVerdictCommand(ctx, jws, opts)));
  serviceOptions(
    verify
      .command('consultation')
      .description('a consultation record: recompute normative_hash and context_hash, verify signed_verdict and its claims')
      .argument('<file|id>', 'a saved record (GET /<tenant>/v1/consultations/<id>), or a cns- id to fetch')
      .option('--trust <file>', 'your trust file (arbiter trust export)')
      .option(
        '--jwks <file|url>',
        "the tenant's key set, instead of --trust (for an id without either: fetched from the verdict service, and the result unpinned)",
      )
      .option('--tenant <id>', "tenant of the consultation (default ARBITER_TENANT or the key's own)"),
    'verdict',
  ).action(run((ctx, input: string, opts: Parameters<typeof verifyConsultationCommand>[2]) => verifyConsultationCommand(ctx, input, opts)));
  serviceOptions(
    verify
      .command('bundle')
      .description('a ledger proof bundle: key window, Ed25519 signature, and the fact_hash chain to the signed head')
      .argument('<bundle>', 'a saved bundle (GET /bundles/<id>), or a bnd- id to fetch with its facts and keys')
      .option('--facts <file>', 'facts in chain order: GET /streams/<id>/facts pages or arrays of facts (repeatable)', collect)
      .option('--trust <file>', 'your trust file: its ledger keys, extended by the transitions of --keys (or of the fetched key set)')
      .option(
        '--keys <file|url>',
        'the ledger key set (GET /.well-known/ledger-keys): your keys without --trust, history with it (for an id without either: fetched, and the result unpinned)',
      ),
    'ledger',
  ).action(run((ctx, input: string, opts: Parameters<typeof verifyBundleCommand>[2]) => verifyBundleCommand(ctx, input, opts)));
  verify
    .command('webhook')
    .description('a webhook delivery: ECDSA P-256 over "<timestamp>.<raw body>"')
    .requiredOption('--body <file>', 'the raw body as received (- for stdin)')
    .requiredOption('--timestamp <ts>', 'X-Service-Timestamp')
    .requiredOption('--signature <hex>', 'X-Service-Signature')
    .requiredOption(
      '--key <pem|file|url>',
      'a PEM public key (inline or a file), or the JSON of GET /.well-known/webhook-key (file or URL)',
    )
    .option('--key-id <kid>', 'X-Service-Key-Id: which key of the set signed')
    .option('--max-age <seconds>', 'also fail a delivery signed longer ago than this (replay protection)')
    .option('--tenant <id>', "your subscription's tenant id: fail a delivery whose body names another tenant_id")
    .option('--subscription <id>', "your subscription's id: fail a delivery whose body names another subscription_id")
    .action(run((ctx, opts: Parameters<typeof verifyWebhookCommand>[1]) => verifyWebhookCommand(ctx, opts)));
  verify
    .command('standard-webhook')
    .description(
      'a webhook delivery by its Standard Webhooks headers: HMAC-SHA256 over "<webhook-id>.<webhook-timestamp>.<raw body>" with the subscription\'s secret',
    )
    .requiredOption('--body <file>', 'the raw body as received (- for stdin)')
    .requiredOption('--id <webhook-id>', 'the webhook-id header')
    .requiredOption('--timestamp <ts>', 'the webhook-timestamp header')
    .requiredOption('--signature <list>', 'the webhook-signature header ("v1,<base64>" entries, space-separated)')
    .option(
      '--secret <whsec|file>',
      "the subscription's secret, whsec_… inline or in a file (repeatable; default: $ARBITER_WEBHOOK_SECRET)",
      collect,
    )
    .option('--max-age <seconds>', 'also fail a delivery signed longer ago than this (replay protection)')
    .option('--tenant <id>', "your subscription's tenant id: fail a delivery whose body names another tenant_id")
    .option('--subscription <id>', "your subscription's id: fail a delivery whose body names another subscription_id")
    .action(run((ctx, opts: Parameters<typeof verifyStandardWebhookCommand>[1]) => verifyStandardWebhookCommand(ctx, opts)));
  verify
    .command('evidence')
    .description(
      "an evidence pack, fully offline: the consultation, its signature, rule versions and approvals; from version 2 also the ledger fact, its inclusion proof and the signed checkpoint; every signature against the keys of --trust, extended by the pack's key history (without --trust: the pack's own keys, and exit 3)",
    )
    .argument('<pack>', 'the file written by `arbiter evidence export`')
    .option('--trust <file>', 'your trust file (arbiter trust export)')
    .action(run((ctx, pack: string, opts: { trust?: string }) => verifyEvidenceCommand(ctx, pack, opts)));

  const evidence = program.command('evidence').description('evidence packs for auditors');
  serviceOptions(
    evidence
      .command('export')
      .description(
        "write one self-contained JSON pack: the record, the key set, the cited rule versions, the approvals, and (version 3) the ledger fact with its inclusion proof, checkpoint, the ledger keys and the tenant's key history",
      )
      .argument('<consultation_id>', 'cns-…')
      .requiredOption('--out <file>', 'where to write the pack')
      .option('--tenant <id>', "the tenant (default ARBITER_TENANT or the key's own)")
      .option('--ledger-url <url>', "the ledger's base URL (env ARBITER_LEDGER_URL)")
      .option('--ledger-api-key <key>', 'the ledger key (env ARBITER_LEDGER_API_KEY; else --api-key or ARBITER_API_KEY)')
      .option('--trust <file>', 'self-check the pack against your trust file (else against its own keys)')
      .option('--fallback-v1', 'when the consultation is not sealed yet, write a version 1 pack (with a warning) instead of failing')
      .option('--v1', 'write a version 1 pack: no ledger evidence, no ledger access'),
    'verdict',
  ).action(run((ctx, id: string, opts: Parameters<typeof exportEvidence>[2]) => exportEvidence(ctx, id, opts)));

  const audit = program
    .command('audit')
    .description('completeness audits; exit 0 when clean, 1 on any finding, 3 when clean but unpinned (no --trust)');
  audit
    .command('consultations')
    .description(
      "compare the verdict service's consultations of a period with the ledger stream arbiter.<tenant>.consultations, and the stream's checkpoint with one you kept",
    )
    .requiredOption('--since <iso>', 'start of the period, inclusive (ISO 8601 date or timestamp)')
    .requiredOption('--until <iso>', 'end of the period, inclusive (a date covers its whole UTC day)')
    .option('--checkpoint <file>', 'a checkpoint kept from an earlier audit: the stream must be consistent with it')
    .option('--save-checkpoint <file>', 'write the current checkpoint there once it verified (keep it for the next audit)')
    .option(
      '--trust <file>',
      "your trust file: the checkpoints are checked with its ledger keys (without it: the ledger's own, and exit 3 when clean)",
    )
    .option('--grace <duration>', 'records younger than this without a ledger fact are pending, not findings', '60s')
    .option('--tenant <id>', "the tenant id tnt-… (default: the key's own)")
    .option(
      '--api-key <key>',
      'API key for both services (default: ARBITER_VERDICT_API_KEY / ARBITER_LEDGER_API_KEY, then ARBITER_API_KEY)',
    )
    .option('--verdict-url <url>', 'verdict service base URL (env ARBITER_VERDICT_URL)')
    .option('--verdict-api-key <key>', 'API key for the verdict service only')
    .option('--ledger-url <url>', 'ledger base URL (env ARBITER_LEDGER_URL)')
    .option('--ledger-api-key <key>', 'API key for the ledger only')
    .action(run((ctx, opts: Parameters<typeof auditConsultationsCommand>[1]) => auditConsultationsCommand(ctx, opts)));

  const archive = program
    .command('archive')
    .description('archive segments of consultations that left the database (docs/operations.md "Archive")');
  archive
    .command('verify')
    .description(
      'check that every consultation the ledger sealed in a period is in the database or in exactly one intact sealed segment, with its hashes; exit 0 when verified, 1 on any problem',
    )
    .requiredOption('--tenant <id>', 'the tenant id tnt-…')
    .requiredOption('--since <iso>', 'start of the period, inclusive (ISO 8601 date or timestamp)')
    .requiredOption('--until <iso>', 'end of the period, inclusive (a date covers its whole UTC day)')
    .option(
      '--archive <url>',
      'the archive: file://<dir> or s3://<bucket>/<prefix> (env ARCHIVE_URL; S3_ENDPOINT, S3_REGION, S3_FORCE_PATH_STYLE and AWS credentials from the environment)',
    )
    .option(
      '--api-key <key>',
      'API key for both services (default: ARBITER_VERDICT_API_KEY / ARBITER_LEDGER_API_KEY, then ARBITER_API_KEY)',
    )
    .option('--verdict-url <url>', 'verdict service base URL (env ARBITER_VERDICT_URL)')
    .option('--verdict-api-key <key>', 'API key for the verdict service only')
    .option('--ledger-url <url>', 'ledger base URL (env ARBITER_LEDGER_URL)')
    .option('--ledger-api-key <key>', 'API key for the ledger only')
    .action(run((ctx, opts: Parameters<typeof archiveVerifyCommand>[1]) => archiveVerifyCommand(ctx, opts)));

  const rules = program.command('rules').description("a scope's rules as a YAML file (docs/rules-as-code.md): export, plan, apply, test");
  serviceOptions(
    rules
      .command('export')
      .description("write the scope's active rules as a rules file (defaults and server-only fields left out)")
      .requiredOption('--scope <scp-id>', 'the scope')
      .option('-o, --out <file>', 'write the file there (default: stdout)'),
    'registry',
  ).action(run((ctx, opts: Parameters<typeof exportRules>[1]) => exportRules(ctx, opts)));
  serviceOptions(
    rules
      .command('plan')
      .description(
        'what apply would change (create, update with the changed fields, archive), and the simulation of it over recent consultations',
      )
      .requiredOption('-f, --file <file>', 'the rules file')
      .option('--scope <scp-id>', 'the scope, for a file that leaves scope: out (a file naming another scope is refused)')
      .option('--last <n>', 'simulate over the last N consultations', '1000')
      .option('--since <iso>', 'only consultations from then on (default: all history)')
      .option('--samples <n>', "changed consultations to show (0 to 100; default the gateway's 20)")
      .option('--no-simulate', 'show the diff only')
      .option('--verdict-url <url>', "the verdict service's base URL, for the simulation (env ARBITER_VERDICT_URL)")
      .option('--verdict-api-key <key>', 'API key for the simulation (manage_rules; default ARBITER_VERDICT_API_KEY, then --api-key)')
      .option('--tenant <id>', "the tenant of the simulation (default ARBITER_TENANT or the key's own)"),
    'registry',
  ).action(run((ctx, opts: Parameters<typeof planRules>[1]) => planRules(ctx, opts)));
  serviceOptions(
    rules
      .command('apply')
      .description("make the scope's rules what the file says (creates and updates, then archives); a second apply changes nothing")
      .requiredOption('-f, --file <file>', 'the rules file')
      .option('--scope <scp-id>', 'the scope, for a file that leaves scope: out (a file naming another scope is refused)'),
    'registry',
  ).action(run((ctx, opts: Parameters<typeof applyRules>[1]) => applyRules(ctx, opts)));
  rules
    .command('test')
    .description('evaluate the cases of a test file against its rules files with the rule engine, no server; exit 1 on any failure')
    .requiredOption('-f, --file <file>', 'the test file')
    .option('-v, --verbose', "every case's verdict, dominating rule and precedence trace")
    .action(run((ctx, opts: Parameters<typeof testRules>[1]) => testRules(ctx, opts)));

  // The registry's identity administration (commands/admin.ts): each command takes the registry's --url and --api-key.
  const registryCommand = (parent: Command, name: string, description: string) =>
    serviceOptions(parent.command(name).description(description), 'registry');
  const tenantId = ['<tenant_id>', 'tnt-…'] as const;
  const principalId = ['<principal_id>', 'agn-… or hum-…'] as const;
  const otherTenant = ['--tenant <id>', "platform admins: another tenant than the key's"] as const;
  // A human's console sign-in (docs/identity.md "Console sign-in").
  const consolePermission = [
    '--console-permission <permission>',
    "what the human's console sessions hold (repeatable; replaces the set; each held by your own key)",
    collect,
  ] as const;
  const oidcIssuer = ['--oidc-issuer <url>', 'the OpenID Connect issuer the human signs in at (with --oidc-subject)'] as const;
  const oidcSubject = ['--oidc-subject <sub>', "the human's subject (sub) at that issuer"] as const;

  const tenants = program
    .command('tenants')
    .description('tenants of the registry (docs/identity.md): a platform admin key sees and creates every tenant, a tenant admin its own');
  registryCommand(tenants, 'list', 'every tenant the key may see').action(run((ctx, opts: ServiceFlags) => admin.listTenants(ctx, opts)));
  registryCommand(tenants, 'create', 'create a tenant (platform admin)')
    .argument('<slug>', 'lowercase letters, digits and dashes; unique')
    .option('--name <name>', 'display name (default: the slug)')
    .option('--settings <json|file>', 'the settings object, inline JSON or a file (- for stdin)')
    .action(run((ctx, slug: string, opts: admin.TenantCreateOptions) => admin.createTenant(ctx, slug, opts)));
  registryCommand(tenants, 'get', 'one tenant with its settings')
    .argument(...tenantId)
    .action(run((ctx, id: string, opts: ServiceFlags) => admin.getTenant(ctx, id, opts)));
  registryCommand(tenants, 'update', 'rename a tenant or replace its settings (admin)')
    .argument(...tenantId)
    .option('--name <name>', 'the new display name')
    .option('--settings <json|file>', 'the new settings object (replaces the old one as a whole)')
    .action(run((ctx, id: string, opts: admin.TenantUpdateOptions) => admin.updateTenant(ctx, id, opts)));

  const principals = program.command('principals').description('agents and humans of a tenant, who hold API keys (admin)');
  registryCommand(principals, 'list', 'every principal of the tenant')
    .option(...otherTenant)
    .action(run((ctx, opts: admin.PrincipalListOptions) => admin.listPrincipals(ctx, opts)));
  registryCommand(principals, 'create', 'create an agent or a human')
    .addOption(new Option('--kind <kind>', 'agent or human').choices(['agent', 'human']).makeOptionMandatory())
    .requiredOption('--name <name>', 'display name')
    .option('--role <role>', 'a role id role-<name> (repeatable), e.g. for approval deciders', collect)
    .option('--tenant <id>', 'platform admins: the tenant (a tenant admin creates in its own)')
    .option(...consolePermission)
    .option(...oidcIssuer)
    .option(...oidcSubject)
    .action(run((ctx, opts: admin.PrincipalCreateOptions) => admin.createPrincipal(ctx, opts)));
  registryCommand(principals, 'get', 'one principal')
    .argument(...principalId)
    .action(run((ctx, id: string, opts: ServiceFlags) => admin.getPrincipal(ctx, id, opts)));
  registryCommand(principals, 'update', 'rename a principal, replace its roles or change its console sign-in')
    .argument(...principalId)
    .option('--name <name>', 'the new display name')
    .option('--role <role>', 'the new roles (repeatable; replaces the old ones)', collect)
    .option('--no-roles', 'remove every role')
    .option(...consolePermission)
    .option('--no-console-permissions', 'remove every console permission')
    .option(...oidcIssuer)
    .option(...oidcSubject)
    .option('--no-oidc', 'unbind the OpenID Connect identity')
    .action(
      run((ctx, id: string, opts: admin.PrincipalUpdateOptions) => admin.updatePrincipal(ctx, id, admin.principalChanges(opts), opts)),
    );
  for (const [name, active, description] of [
    ['deactivate', false, 'deactivate a principal: every key of it is refused from then on'],
    ['activate', true, 'activate a deactivated principal again'],
  ] as const) {
    registryCommand(principals, name, description)
      .argument(...principalId)
      .action(run((ctx, id: string, opts: ServiceFlags) => admin.updatePrincipal(ctx, id, { active }, opts)));
  }

  const consoleCmd = program
    .command('console')
    .description('the web console at the registry’s /console (docs/identity.md "Console sign-in")');
  registryCommand(consoleCmd, 'link', 'print a one-time sign-in link for a human principal (admin; one use, 10 minutes)')
    .requiredOption('--principal <id>', 'the human principal (hum-…) to sign in as')
    .action(run((ctx, opts: ServiceFlags & { principal: string }) => admin.consoleLink(ctx, opts)));

  const apiKeys = program.command('api-keys').description('API keys of principals (admin): the plaintext key is shown once, at creation');
  registryCommand(apiKeys, 'list', 'the keys of the tenant, without their secrets')
    .option('--principal <id>', 'only the keys of this principal')
    .option(...otherTenant)
    .action(run((ctx, opts: admin.ApiKeyListOptions) => admin.listApiKeys(ctx, opts)));
  registryCommand(apiKeys, 'create', 'create a key for a principal and print it once')
    .requiredOption('--principal <id>', 'the principal that holds the key')
    .requiredOption(
      '--permission <permission>',
      'read, write, manage_rules, manage_invariants, approve, check, seal, admin, platform_admin (repeatable; each held by your own key)',
      collect,
    )
    .option('--scope <scp-id>', 'restrict the key to this scope (repeatable; default every scope)', collect)
    .option('--expires-at <iso>', 'when the key stops working (ISO 8601 with Z or an offset, in the future)')
    .option('--tenant <id>', 'platform admins: the tenant of the principal')
    .option('--out <file>', 'write the key to this file (mode 0600) instead of printing it')
    .action(run((ctx, opts: admin.ApiKeyCreateOptions) => admin.createApiKey(ctx, opts)));
  registryCommand(apiKeys, 'revoke', 'revoke a key: it is refused from then on')
    .argument('<key_id>', 'key-…')
    .action(run((ctx, id: string, opts: ServiceFlags) => admin.revokeApiKey(ctx, id, opts)));

  program
    .command('mcp-proxy')
    .description(
      'Arbiter in front of MCP servers (docs/agents.md): every tools/call is checked by the verdict gateway before it reaches its server; runs until its client goes away or SIGINT/SIGTERM',
    )
    .requiredOption(
      '--config <file>',
      'the proxy configuration (YAML: verdict_url, tenant, api_key_env, upstreams, scope, tools, on_approval, wait_seconds)',
    )
    .option('--http <port>', 'serve Streamable HTTP at http://<host>:<port>/mcp instead of stdio (0: a free port, printed on stderr)')
    .option('--host <host>', 'with --http: the address to listen on', '127.0.0.1')
    .action(run((ctx, opts: Parameters<typeof mcpProxy>[1]) => mcpProxy(ctx, opts)));

  program
    .command('completion')
    .description('print a completion script for bash, zsh or fish, made from this command tree (docs/cli.md "Shell completion")')
    .addArgument(new Argument('<shell>', 'the shell').choices(SHELLS))
    .action((shell: Shell) => io.stdout(completionScript(shell, program)));
  return program;
}

/** Runs the CLI on argv (without node and script) and resolves with the exit code. */
export async function runCli(argv: string[], io: Io): Promise<number> {
  let exitCode: number = EXIT.ok;
  const program = buildProgram(io, (code) => (exitCode = code));
  const json = argv.includes('--json');
  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help and --version end here too, with exit code 0.
      return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    const failure =
      err instanceof CliError ? err : (serviceFailure(err) ?? (err instanceof InputError ? new CliError(err.message) : undefined));
    if (!failure) {
      io.stderr(`arbiter: unexpected error: ${(err as Error)?.stack ?? String(err)}\n`);
      return EXIT.usage;
    }
    if (json) io.stdout(`${JSON.stringify({ error: failure.message, exit_code: failure.exitCode }, null, 2)}\n`);
    io.stderr(`arbiter: ${failure.message}\n`);
    return failure.exitCode;
  }
}
