// What every command needs: the global flags, output helpers, inputs and the service clients, built
// from flags first, then environment variables, then the clone's quickstart and stack files, then the
// defaults (docs/cli.md "Configuration").
import path from 'node:path';
import { ArbiterError, createLedgerClient, createRegistryClient, createVerdictClient, type VerificationReport } from '@arbiter/client';
import { findRepeatedMemberName, jsonPointer, parseStorableJson, UnstorableJsonError } from '@arbiter/input';
import { readCapped } from './files';
import { CliError, EXIT, type Io } from './io';
import { exitCodeOf, renderReport } from './render';
import {
  lookup,
  NO_FILES,
  parseEnvFile,
  QUICKSTART_FILE,
  QUICKSTART_VARIABLES,
  ROLE_KEYS,
  sameUrl,
  STACK_FILE,
  type Found,
  type KeyRole,
  type Origin,
  type SettingsFiles,
} from './settings';

export interface GlobalOptions {
  json?: boolean;
  quiet?: boolean;
}

export interface ServiceFlags {
  url?: string;
  apiKey?: string;
  tenant?: string;
}

export const DEFAULT_URLS = {
  registry: 'http://127.0.0.1:3001',
  verdict: 'http://127.0.0.1:3002',
  ledger: 'http://127.0.0.1:3003',
} as const;
export type Service = keyof typeof DEFAULT_URLS;

/** The data directory the CLI reads the stack and quickstart files from: ARBITER_DATA_DIR, else the clone's. */
export function dataDirOf(io: Io): string | undefined {
  const fromEnv = io.env.ARBITER_DATA_DIR;
  return fromEnv ? path.resolve(fromEnv) : io.dataDir;
}

/** Reads `<data dir>/stack.env` and `<data dir>/quickstart.env`; a missing or unreadable file is no file. */
export async function loadSettingsFiles(io: Io): Promise<SettingsFiles> {
  const dir = dataDirOf(io);
  if (!dir) return NO_FILES;
  const read = (name: string) => io.readFile(path.join(dir, name)).then(parseEnvFile, () => ({}));
  const [stack, quickstart] = await Promise.all([read(STACK_FILE), read(QUICKSTART_FILE)]);
  return { dir, stack, quickstart };
}

/** Where a URL or key the CLI used came from, as its messages say it. */
function originText(origin: Origin, files: SettingsFiles, name: string): string {
  switch (origin) {
    case 'flag':
      return 'from the command line';
    case 'environment':
      return `from ${name}`;
    case 'quickstart':
      return `from ${path.join(files.dir ?? '.', QUICKSTART_FILE)}`;
    case 'stack':
      return `from ${path.join(files.dir ?? '.', STACK_FILE)}, written by npm start`;
    case 'default':
      return 'the default';
  }
}

export interface Used {
  url: string;
  urlFrom: string;
  keyFrom?: string;
}

export class CommandContext {
  /** The URL (and key origin) each service was called with: failures name them. */
  private readonly used = new Map<Service, Used>();

  constructor(
    readonly io: Io,
    readonly global: GlobalOptions,
    readonly files: SettingsFiles = NO_FILES,
  ) {}

  /** Progress of long runs, on stderr so that stdout stays the result (--quiet silences it). */
  progress(message: string): void {
    if (!this.global.quiet) this.io.stderr(`… ${message}\n`);
  }

  /** Prints a result: JSON with --json, else the human lines. */
  print(json: unknown, human: string): void {
    this.io.stdout(this.global.json ? `${JSON.stringify(json, null, 2)}\n` : `${human}\n`);
  }

  /** Prints a verification report and gives the exit code: 0 valid, 1 a check failed, 3 unpinned. */
  report(report: VerificationReport, extra: Record<string, unknown> = {}): number {
    this.print({ ...report, ...extra }, renderReport(report));
    return exitCodeOf(report);
  }

  private env(name: string): string | undefined {
    const v = this.io.env[name];
    return v === undefined || v === '' ? undefined : v;
  }

  /** A service's base URL and where it came from: flag, environment, quickstart file, stack file, default. */
  serviceUrlOf(service: Service, flags: ServiceFlags, withQuickstart = true): Found & { name: string } {
    const name = `ARBITER_${service.toUpperCase()}_URL`;
    if (flags.url) return { value: flags.url, origin: 'flag', name };
    const files = withQuickstart ? this.files : { ...this.files, quickstart: {} };
    return { ...(lookup(name, this.io.env, files) ?? { value: DEFAULT_URLS[service], origin: 'default' as const }), name };
  }

  /** A URL from the flag, the environment, the stack file or the default: never the quickstart file (quickstart rewrites it). */
  stackUrl(service: Service, flag: string | undefined): string {
    return this.serviceUrlOf(service, { url: flag }, false).value;
  }

  /** Records the URL and key a command calls a service with, when it builds the client itself. */
  using(service: Service, url: string, keyFrom: string): void {
    const found = this.serviceUrlOf(service, {});
    this.used.set(service, {
      url,
      urlFrom: sameUrl(found.value, url) ? originText(found.origin, this.files, found.name) : 'from the command line',
      keyFrom,
    });
  }

  serviceUrl(service: Service, flags: ServiceFlags): string {
    return this.serviceUrlOf(service, flags).value;
  }

  /**
   * The API key: the flag, the service's variable, ARBITER_API_KEY; then, for a command of a `role`, the
   * quickstart file's key of that role, but only towards the URL that file names for the service (its
   * keys never go to another stack).
   */
  apiKey(service: Service, flags: ServiceFlags, required = true, role?: KeyRole): string | undefined {
    return this.apiKeyOf(service, flags, required, role)?.value;
  }

  private apiKeyOf(service: Service, flags: ServiceFlags, required: boolean, role?: KeyRole): (Found & { name: string }) | undefined {
    const own = `ARBITER_${service.toUpperCase()}_API_KEY`;
    if (flags.apiKey) return { value: flags.apiKey, origin: 'flag', name: '--api-key' };
    for (const name of [own, 'ARBITER_API_KEY']) {
      const v = this.env(name);
      if (v) return { value: v, origin: 'environment', name };
    }
    const url = this.serviceUrlOf(service, flags);
    const fileKey = role ? this.files.quickstart[ROLE_KEYS[role]] : undefined;
    const fileUrl = this.files.quickstart[url.name];
    if (fileKey && fileUrl && sameUrl(fileUrl, url.value)) return { value: fileKey, origin: 'quickstart', name: ROLE_KEYS[role!] };
    if (!required) return undefined;
    const hint =
      fileKey && fileUrl
        ? ` (the quickstart file's key is for the stack at ${fileUrl}, and is not sent to ${url.value})`
        : role && this.files.dir
          ? ` (or run arbiter quickstart: its keys in ${path.join(this.files.dir, QUICKSTART_FILE)} are used when no key is given)`
          : '';
    throw new CliError(`no API key for the ${service} service: pass --api-key or set ${own} or ARBITER_API_KEY${hint}`);
  }

  /**
   * A key variable of the quickstart file for a command that names its variable itself (mcp-proxy's
   * api_key_env), under the same condition as apiKey: only towards the URL the file names for the service.
   */
  quickstartKey(name: string, service: Service, url: string | undefined): string | undefined {
    const value =
      name.endsWith('_KEY') && (QUICKSTART_VARIABLES as readonly string[]).includes(name) ? this.files.quickstart[name] : undefined;
    const used = this.serviceUrlOf(service, { url });
    const fileUrl = this.files.quickstart[used.name];
    return value && fileUrl && sameUrl(fileUrl, used.value) ? value : undefined;
  }

  /** The tenant: the flag, ARBITER_TENANT, or the quickstart file's when its key is the one used. */
  private tenantOf(flags: ServiceFlags, key: Found | undefined): string | undefined {
    return flags.tenant ?? this.env('ARBITER_TENANT') ?? (key?.origin === 'quickstart' ? this.files.quickstart.ARBITER_TENANT : undefined);
  }

  /** Records what a service is called with, for the messages of its failures. */
  private remember(service: Service, flags: ServiceFlags, keyRequired: boolean, role?: KeyRole) {
    const url = this.serviceUrlOf(service, flags);
    const key = this.apiKeyOf(service, flags, keyRequired, role);
    this.used.set(service, {
      url: url.value,
      urlFrom: originText(url.origin, this.files, url.name),
      keyFrom: key ? originText(key.origin, this.files, key.name) : undefined,
    });
    return { url: url.value, key };
  }

  /** A service's refusal or an unreachable service as a CliError naming the URL used and where it came from. */
  failure(err: unknown): CliError | undefined {
    if (!(err instanceof ArbiterError)) return undefined;
    const used = this.used.get(err.service);
    return serviceFailure(err, used);
  }

  /**
   * The flags of a command's second service (`--ledger-url`, `--ledger-api-key`): the key falls back to
   * that service's variable, then to the command's shared key (`--api-key`), then to ARBITER_API_KEY.
   */
  otherService(service: Service, url: string | undefined, apiKey: string | undefined, sharedKey: string | undefined): ServiceFlags {
    return { url, apiKey: apiKey ?? this.env(`ARBITER_${service.toUpperCase()}_API_KEY`) ?? sharedKey };
  }

  verdict(flags: ServiceFlags, keyRequired = true, role?: KeyRole) {
    const { url, key } = this.remember('verdict', flags, keyRequired, role);
    return createVerdictClient({ baseUrl: url, apiKey: key?.value, tenant: this.tenantOf(flags, key), fetch: this.io.fetch });
  }

  ledger(flags: ServiceFlags, keyRequired = true, role?: KeyRole) {
    const { url, key } = this.remember('ledger', flags, keyRequired, role);
    return createLedgerClient({ baseUrl: url, apiKey: key?.value, fetch: this.io.fetch });
  }

  registry(flags: ServiceFlags, keyRequired = true, role?: KeyRole) {
    const { url, key } = this.remember('registry', flags, keyRequired, role);
    return createRegistryClient({ baseUrl: url, apiKey: key?.value, fetch: this.io.fetch });
  }

  /** Reads text from a file, `-` (stdin) or an http(s) URL, at most MAX_INPUT_BYTES (files.ts). */
  async readText(source: string, what: string): Promise<string> {
    try {
      if (source === '-') return await this.io.readStdin();
      if (/^https?:\/\//i.test(source)) {
        const res = await this.io.fetch(source, { headers: { accept: 'application/json, application/x-pem-file, */*' } });
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        return res.body ? await readCapped(res.body) : '';
      }
      return await this.io.readFile(source);
    } catch (err) {
      throw new CliError(`cannot read the ${what} ${source}: ${(err as Error).message}`);
    }
  }

  /**
   * A JSON input read exactly or not at all (docs/development.md "Storable JSON"): a number the parse
   * would change, U+0000, a lone surrogate or nesting past 64 levels is refused, as the services refuse
   * them, so that nothing the CLI sends, hashes or verifies differs from the file. So is a member name an
   * object repeats: the parse keeps the last value, a person or another reader may take the first, and a
   * verifier's VALID would then vouch for a value the file also shows otherwise (docs/cli.md "Files and keys").
   */
  async readJson(source: string, what: string): Promise<unknown> {
    const text = await this.readText(source, what);
    let value: unknown;
    try {
      value = parseStorableJson(text);
    } catch (err) {
      if (err instanceof UnstorableJsonError) throw new CliError(`the ${what} ${source} cannot be read exactly: ${err.message}`);
      throw new CliError(`the ${what} ${source} is not JSON: ${(err as Error).message}`);
    }
    const repeated = findRepeatedMemberName(text);
    if (repeated !== null)
      throw new CliError(
        `the ${what} ${source} cannot be read exactly: ${jsonPointer(repeated).slice(0, 200)} names a member its object already has, and a reader may take either value`,
      );
    return value;
  }
}

/**
 * A service's refusal or an unreachable service as a CliError: refusals exit 1, connection problems 2.
 * With `used` (what the command called the service with), an unreachable service and a key the service
 * does not know (401) name the URL and where it came from: the commonest cause is another stack.
 */
export function serviceFailure(err: unknown, used?: Used): CliError | undefined {
  if (!(err instanceof ArbiterError)) return undefined;
  const at = used ? ` at ${used.url} (${used.urlFrom})` : '';
  if (err.status === 0)
    return new CliError(
      `cannot reach the ${err.service} service${at}: ${err.message}${used ? '; is the stack running (npm start), and is this its URL?' : ''}`,
      EXIT.usage,
    );
  const details = err.details === undefined ? '' : ` ${JSON.stringify(err.details)}`;
  const reason = `${err.status} ${err.code}: ${err.message.replace(/^\S+ \d+ \S+: /, '')}${details}`;
  if (err.status === 401 && used) {
    const key = used.keyFrom ? `the API key (${used.keyFrom})` : 'a request without an API key';
    return new CliError(
      `the ${err.service} service${at} does not know ${key}: ${reason}; a key works only on the stack that made it, until it is revoked or expires`,
      EXIT.failed,
    );
  }
  return new CliError(`the ${err.service} service refused: ${reason}`, EXIT.failed);
}
