// What every command needs: the global flags, output helpers, inputs and the service clients, built
// from flags first, then environment variables (docs/cli.md "Configuration").
import { ArbiterError, createLedgerClient, createRegistryClient, createVerdictClient, type VerificationReport } from '@arbiter/client';
import { parseStorableJson, UnstorableJsonError } from '@arbiter/input';
import { readCapped } from './files';
import { CliError, EXIT, type Io } from './io';
import { exitCodeOf, renderReport } from './render';

export interface GlobalOptions {
  json?: boolean;
  quiet?: boolean;
}

export interface ServiceFlags {
  url?: string;
  apiKey?: string;
  tenant?: string;
}

const DEFAULT_URLS = { registry: 'http://127.0.0.1:3001', verdict: 'http://127.0.0.1:3002', ledger: 'http://127.0.0.1:3003' } as const;
type Service = keyof typeof DEFAULT_URLS;

export class CommandContext {
  constructor(
    readonly io: Io,
    readonly global: GlobalOptions,
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

  serviceUrl(service: Service, flags: ServiceFlags): string {
    return flags.url ?? this.env(`ARBITER_${service.toUpperCase()}_URL`) ?? DEFAULT_URLS[service];
  }

  apiKey(service: Service, flags: ServiceFlags, required = true): string | undefined {
    const key = flags.apiKey ?? this.env(`ARBITER_${service.toUpperCase()}_API_KEY`) ?? this.env('ARBITER_API_KEY');
    if (!key && required) throw new CliError(`no API key for the ${service} service: pass --api-key or set ARBITER_${service.toUpperCase()}_API_KEY or ARBITER_API_KEY`);
    return key;
  }

  /**
   * The flags of a command's second service (`--ledger-url`, `--ledger-api-key`): the key falls back to
   * that service's variable, then to the command's shared key (`--api-key`), then to ARBITER_API_KEY.
   */
  otherService(service: Service, url: string | undefined, apiKey: string | undefined, sharedKey: string | undefined): ServiceFlags {
    return { url, apiKey: apiKey ?? this.env(`ARBITER_${service.toUpperCase()}_API_KEY`) ?? sharedKey };
  }

  verdict(flags: ServiceFlags, keyRequired = true) {
    return createVerdictClient({ baseUrl: this.serviceUrl('verdict', flags), apiKey: this.apiKey('verdict', flags, keyRequired), tenant: flags.tenant ?? this.env('ARBITER_TENANT'), fetch: this.io.fetch });
  }

  ledger(flags: ServiceFlags, keyRequired = true) {
    return createLedgerClient({ baseUrl: this.serviceUrl('ledger', flags), apiKey: this.apiKey('ledger', flags, keyRequired), fetch: this.io.fetch });
  }

  registry(flags: ServiceFlags, keyRequired = true) {
    return createRegistryClient({ baseUrl: this.serviceUrl('registry', flags), apiKey: this.apiKey('registry', flags, keyRequired), fetch: this.io.fetch });
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
   * them, so that nothing the CLI sends, hashes or verifies differs from the file.
   */
  async readJson(source: string, what: string): Promise<unknown> {
    const text = await this.readText(source, what);
    try {
      return parseStorableJson(text);
    } catch (err) {
      if (err instanceof UnstorableJsonError) throw new CliError(`the ${what} ${source} cannot be read exactly: ${err.message}`);
      throw new CliError(`the ${what} ${source} is not JSON: ${(err as Error).message}`);
    }
  }
}

/** A service's refusal or an unreachable service as a CliError: refusals exit 1, connection problems 2. */
export function serviceFailure(err: unknown): CliError | undefined {
  if (!(err instanceof ArbiterError)) return undefined;
  if (err.status === 0) return new CliError(`cannot reach the ${err.service} service: ${err.message}`, EXIT.usage);
  const details = err.details === undefined ? '' : ` ${JSON.stringify(err.details)}`;
  return new CliError(`the ${err.service} service refused: ${err.status} ${err.code}: ${err.message.replace(/^\S+ \d+ \S+: /, '')}${details}`, EXIT.failed);
}
