// Where the CLI finds its stack (docs/cli.md "Configuration"): flags, then the environment, then the
// clone's quickstart file (`arbiter quickstart`), then its stack file (`npm start`), then the defaults.
// Both files are `KEY=value` lines under the data directory (ARBITER_DATA_DIR, else the clone's .data/).
// Pure: the files' texts come in, the lookups go out.

export const STACK_FILE = 'stack.env';
export const QUICKSTART_FILE = 'quickstart.env';

/** What `npm start` writes: the services' URLs, nothing secret. */
export const STACK_VARIABLES = ['ARBITER_REGISTRY_URL', 'ARBITER_VERDICT_URL', 'ARBITER_LEDGER_URL'] as const;

/** What `arbiter quickstart` writes (a fixed contract: names are added, never removed). */
export const QUICKSTART_VARIABLES = [
  ...STACK_VARIABLES,
  'ARBITER_TENANT',
  'ARBITER_TENANT_SLUG',
  'ARBITER_API_KEY',
  'ARBITER_AGENT_KEY',
  'ARBITER_APPROVER_KEY',
  'ARBITER_RULES_KEY',
  'ARBITER_TENANT_ADMIN_KEY',
  'ARBITER_SCOPE_ID',
  'ARBITER_AGENT_ID',
  'ARBITER_APPROVER_ID',
  'ARBITER_TENANT_ADMIN_ID',
] as const;

/** The quickstart file's key for each kind of command (commands that name none take no key from it). */
export const ROLE_KEYS = {
  agent: 'ARBITER_API_KEY',
  rules: 'ARBITER_RULES_KEY',
  approver: 'ARBITER_APPROVER_KEY',
  admin: 'ARBITER_TENANT_ADMIN_KEY',
} as const;
export type KeyRole = keyof typeof ROLE_KEYS;

/**
 * `KEY=value` lines: blank lines and `#` comments skipped, `export ` before a name allowed, a value in
 * single or double quotes unquoted. Lines of another form are ignored (the file is read, never run).
 */
export function parseEnvFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const m = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(raw);
    if (!m) continue;
    let value = m[2]!.trim();
    if (value.length >= 2 && (value[0] === '"' || value[0] === "'") && value.at(-1) === value[0]) value = value.slice(1, -1);
    out[m[1]!] = value;
  }
  return out;
}

/**
 * The lines of an env file: one comment per line of `header`, then `KEY=value`. Values are written bare:
 * the file is sourced by shells (`set -a; . .data/quickstart.env`) and read by the CLI, so a value
 * holding anything a shell would interpret is refused.
 */
export function formatEnvFile(header: string[], values: Record<string, string>): string {
  const lines = header.map((h) => `# ${h}`);
  for (const [k, v] of Object.entries(values)) {
    if (!/^[A-Za-z0-9_.:/@+,=%[\]-]*$/.test(v)) throw new Error(`${k}: a value a shell would interpret cannot be written to an env file`);
    lines.push(`${k}=${v}`);
  }
  return `${lines.join('\n')}\n`;
}

/** Where a value came from, as the CLI names it in its messages. */
export type Origin = 'flag' | 'environment' | 'quickstart' | 'stack' | 'default';

export interface Found {
  value: string;
  origin: Origin;
}

export interface SettingsFiles {
  /** The data directory the files were looked for in (undefined: none, e.g. a copied bundle). */
  dir?: string;
  stack: Record<string, string>;
  quickstart: Record<string, string>;
}

export const NO_FILES: SettingsFiles = { stack: {}, quickstart: {} };

/**
 * One variable by precedence: environment > quickstart file > stack file. Only the variables each
 * file is meant to hold are taken from it.
 */
export function lookup(name: string, env: Record<string, string | undefined>, files: SettingsFiles): Found | undefined {
  const fromEnv = env[name];
  if (fromEnv !== undefined && fromEnv !== '') return { value: fromEnv, origin: 'environment' };
  if ((QUICKSTART_VARIABLES as readonly string[]).includes(name) && files.quickstart[name])
    return { value: files.quickstart[name]!, origin: 'quickstart' };
  if ((STACK_VARIABLES as readonly string[]).includes(name) && files.stack[name]) return { value: files.stack[name]!, origin: 'stack' };
  return undefined;
}

/** A base URL without its trailing slashes, for comparing the URL a key was made for with the one used. */
export const sameUrl = (a: string, b: string) => a.replace(/\/+$/, '') === b.replace(/\/+$/, '');
