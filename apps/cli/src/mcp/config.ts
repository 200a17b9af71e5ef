// The MCP proxy's configuration file (docs/agents.md "The proxy's configuration"): YAML, checked in
// full before the proxy starts. Every problem names its key and line, so a typo fails at start
// instead of turning into a call the proxy maps wrongly.
import path from 'node:path';
import { isPlainObject as isObject } from '@arbiter/input';
import { formatProblem, YamlSource, type FileProblem } from '../rules/rules-file';
import { isLoopbackHost } from './loopback';
import { templateProblem } from './templates';

export type ScopeValue = string | number | boolean;

export type UpstreamConfig =
  | { name: string; kind: 'stdio'; command: string; args: string[]; env: Record<string, string>; cwd: string }
  | { name: string; kind: 'http'; url: string };

export interface ToolMapping {
  action?: string;
  /** A template: `${args.<path>}` is replaced by that argument. */
  resource?: string;
  /** Merged over the file's scope; string values may be templates too. */
  scope?: Record<string, ScopeValue>;
}

export interface McpProxyConfig {
  /** The verdict gateway; absent: ARBITER_VERDICT_URL, else http://127.0.0.1:3002 (as every command). */
  verdictUrl?: string;
  /** Tenant id or slug; absent: ARBITER_TENANT, else the API key's own. */
  tenant?: string;
  /** Name of the environment variable that holds the API key. */
  apiKeyEnv: string;
  upstreams: UpstreamConfig[];
  scope: Record<string, ScopeValue>;
  /** Keyed `<upstream>.<tool>`. */
  tools: Record<string, ToolMapping>;
  onApproval: 'return' | 'wait';
  waitSeconds: number;
}

export const DEFAULT_API_KEY_ENV = 'ARBITER_API_KEY';
export const DEFAULT_WAIT_SECONDS = 300;
const MAX_WAIT_SECONDS = 86_400;

const TOP_KEYS = ['verdict_url', 'tenant', 'api_key_env', 'upstreams', 'scope', 'tools', 'on_approval', 'wait_seconds'];
const STDIO_KEYS = ['name', 'command', 'args', 'env', 'cwd'];
const HTTP_KEYS = ['name', 'url'];
const MAPPING_KEYS = ['action', 'resource', 'scope'];
/** Upstream names prefix tool names (`<upstream>.<tool>`): no dots in them. */
const UPSTREAM_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const SCOPE_FIELD = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

/** A configuration that cannot be used: every problem, each at its key and line. */
export class McpConfigError extends Error {
  constructor(readonly problems: FileProblem[]) {
    super(problems.map(formatProblem).join('\n'));
    this.name = 'McpConfigError';
  }
}

type Path = (string | number)[];
const isScalar = (v: unknown): v is ScopeValue =>
  typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));
const urlOf = (v: unknown): URL | null => {
  if (typeof v !== 'string') return null;
  try {
    return new URL(v);
  } catch {
    return null;
  }
};
const isHttpUrl = (v: unknown): v is string => ['http:', 'https:'].includes(urlOf(v)?.protocol ?? '');
/**
 * Where a file may send the API key: https, or plain http to this machine only. A configuration in a
 * cloned repository must not be able to send the key in clear over a network; an operator who means
 * to may say so with ARBITER_VERDICT_URL, which is theirs and not the file's.
 */
const isKeySafeUrl = (v: unknown): v is string => {
  const url = urlOf(v);
  return (
    url !== null &&
    !url.username &&
    !url.password &&
    (url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname)))
  );
};

/**
 * Parses and checks a configuration file. `file` names it in messages and anchors relative `cwd`s:
 * an upstream command runs in the configuration file's folder unless it says otherwise.
 */
export function parseMcpConfig(file: string, text: string): McpProxyConfig {
  const src = new YamlSource(file, text);
  const fail = () => {
    throw new McpConfigError([...src.problems].sort((a, b) => a.line - b.line || a.col - b.col));
  };
  if (!src.ok) fail();
  const raw = src.value();
  if (raw === undefined) fail();
  if (!isObject(raw)) {
    src.problem([], 'the configuration is a mapping with at least `upstreams`');
    fail();
  }
  const doc = raw as Record<string, unknown>;
  const p = (at: Path, message: string, atKey = false) => src.problem(at, message, atKey);
  unknownKeys(doc, TOP_KEYS, [], p, 'the configuration');

  const verdictUrl = optional<string>(
    doc.verdict_url,
    isKeySafeUrl,
    ['verdict_url'],
    "verdict_url is the verdict gateway's base URL: https://…, or http:// on a loopback address only, since the API key goes with every check (for plain http elsewhere set ARBITER_VERDICT_URL instead)",
    p,
  );
  const tenant = optional<string>(
    doc.tenant,
    (v) => typeof v === 'string' && v.trim() !== '',
    ['tenant'],
    "tenant is the tenant's id (tnt-…) or slug",
    p,
  );
  const apiKeyEnv =
    optional<string>(
      doc.api_key_env,
      (v) => typeof v === 'string' && ENV_NAME.test(v),
      ['api_key_env'],
      'api_key_env is the name of an environment variable (letters, digits, _)',
      p,
    ) ?? DEFAULT_API_KEY_ENV;

  const baseDir = path.dirname(path.resolve(file));
  const upstreams: UpstreamConfig[] = [];
  const indexOf = new Map<string, number>();
  if (!Array.isArray(doc.upstreams) || doc.upstreams.length === 0) {
    p(['upstreams'], 'upstreams is required: a list of MCP servers, each {name, command, args?, env?, cwd?} or {name, url}');
  } else {
    doc.upstreams.forEach((u, i) => {
      const parsed = parseUpstream(u, ['upstreams', i], baseDir, p);
      if (!parsed) return;
      const first = indexOf.get(parsed.name);
      if (first !== undefined) p(['upstreams', i, 'name'], `the same name as upstreams[${first}]: each upstream has its own name`);
      else {
        indexOf.set(parsed.name, i);
        upstreams.push(parsed);
      }
    });
  }

  const scope = parseScope(doc.scope, ['scope'], p) ?? {};
  const tools: Record<string, ToolMapping> = {};
  if (doc.tools !== undefined && doc.tools !== null) {
    if (!isObject(doc.tools)) p(['tools'], 'tools is a mapping from "<upstream>.<tool>" to {action?, resource?, scope?}');
    else
      for (const [key, value] of Object.entries(doc.tools)) {
        const at = ['tools', key];
        const dot = key.indexOf('.');
        const upstream = dot > 0 ? key.slice(0, dot) : '';
        if (dot <= 0 || dot === key.length - 1) p(at, `"${key}" is not <upstream>.<tool>`, true);
        else if (
          Array.isArray(doc.upstreams) &&
          !upstreams.some((u) => u.name === upstream) &&
          !doc.upstreams.some((u) => isObject(u) && u.name === upstream)
        )
          p(at, `"${key}" names no upstream: the upstreams are ${upstreams.map((u) => u.name).join(', ') || '(none)'}`, true);
        const mapping = parseMapping(value, at, p);
        if (mapping) tools[key] = mapping;
      }
  }

  let onApproval: 'return' | 'wait' = 'return';
  if (doc.on_approval !== undefined && doc.on_approval !== null) {
    if (doc.on_approval === 'return' || doc.on_approval === 'wait') onApproval = doc.on_approval;
    else p(['on_approval'], 'on_approval is return (answer with the pending approval) or wait (wait for its decision)');
  }
  const waitSeconds =
    optional<number>(
      doc.wait_seconds,
      (v) => typeof v === 'number' && Number.isFinite(v) && v > 0 && v <= MAX_WAIT_SECONDS,
      ['wait_seconds'],
      `wait_seconds is a number of seconds above 0, at most ${MAX_WAIT_SECONDS}`,
      p,
    ) ?? DEFAULT_WAIT_SECONDS;

  if (src.problems.length) fail();
  return { verdictUrl, tenant, apiKeyEnv, upstreams, scope, tools, onApproval, waitSeconds };
}

type Report = (at: Path, message: string, atKey?: boolean) => void;

function unknownKeys(obj: Record<string, unknown>, known: string[], at: Path, p: Report, what: string): void {
  for (const key of Object.keys(obj))
    if (!known.includes(key)) p([...at, key], `unknown key "${key}" (${what} has ${known.join(', ')})`, true);
}

function optional<T>(value: unknown, ok: (v: unknown) => boolean, at: Path, message: string, p: Report): T | undefined {
  if (value === undefined || value === null) return undefined;
  if (!ok(value)) {
    p(at, message);
    return undefined;
  }
  return value as T;
}

function parseUpstream(raw: unknown, at: Path, baseDir: string, p: Report): UpstreamConfig | null {
  if (!isObject(raw)) {
    p(at, 'an upstream is {name, command, args?, env?, cwd?} (a server started over stdio) or {name, url} (Streamable HTTP)');
    return null;
  }
  const before = { n: 0 };
  const report: Report = (a, m, k) => {
    before.n++;
    p(a, m, k);
  };
  const name = raw.name;
  if (typeof name !== 'string' || !UPSTREAM_NAME.test(name))
    report([...at, 'name'], 'name is required: letters, digits, _ and - (it prefixes the tool names as <name>.<tool>)');
  if ((raw.command === undefined) === (raw.url === undefined)) {
    report(at, 'an upstream has either command (a server started over stdio) or url (Streamable HTTP), not both');
    return null;
  }
  if (raw.url !== undefined) {
    unknownKeys(raw, HTTP_KEYS, at, report, 'an http upstream');
    if (!isHttpUrl(raw.url)) report([...at, 'url'], "url is the server's Streamable HTTP endpoint, an http(s) URL");
    return before.n ? null : { name: name as string, kind: 'http', url: raw.url as string };
  }
  unknownKeys(raw, STDIO_KEYS, at, report, 'a stdio upstream');
  if (typeof raw.command !== 'string' || raw.command.trim() === '')
    report([...at, 'command'], 'command is the program that starts the server');
  const args: string[] = [];
  if (raw.args !== undefined && raw.args !== null) {
    if (!Array.isArray(raw.args)) report([...at, 'args'], 'args is a list of strings');
    else
      raw.args.forEach((a, i) => {
        if (isScalar(a)) args.push(String(a));
        else report([...at, 'args', i], 'an argument is a string');
      });
  }
  const env: Record<string, string> = {};
  if (raw.env !== undefined && raw.env !== null) {
    if (!isObject(raw.env)) report([...at, 'env'], 'env is a mapping of variable names to strings');
    else
      for (const [k, v] of Object.entries(raw.env)) {
        if (!ENV_NAME.test(k)) report([...at, 'env', k], `"${k}" is not a variable name`, true);
        else if (!isScalar(v)) report([...at, 'env', k], 'an environment value is a string');
        else env[k] = String(v);
      }
  }
  let cwd = baseDir;
  if (raw.cwd !== undefined && raw.cwd !== null) {
    if (typeof raw.cwd !== 'string' || raw.cwd === '') report([...at, 'cwd'], "cwd is a folder (relative to the configuration file's)");
    else cwd = path.resolve(baseDir, raw.cwd);
  }
  return before.n ? null : { name: name as string, kind: 'stdio', command: raw.command as string, args, env, cwd };
}

function parseScope(raw: unknown, at: Path, p: Report): Record<string, ScopeValue> | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!isObject(raw)) {
    p(at, 'scope is a mapping of scope fields to strings, numbers or booleans');
    return undefined;
  }
  const scope: Record<string, ScopeValue> = {};
  for (const [k, v] of Object.entries(raw)) {
    if (!SCOPE_FIELD.test(k)) p([...at, k], `"${k}" is not a scope field name`, true);
    else if (!isScalar(v)) p([...at, k], 'a scope value is a string, a number or a boolean');
    else {
      const problem = typeof v === 'string' ? templateProblem(v) : null;
      if (problem) p([...at, k], problem);
      else scope[k] = v;
    }
  }
  return scope;
}

function parseMapping(raw: unknown, at: Path, p: Report): ToolMapping | null {
  if (raw === null || raw === undefined) return {};
  if (!isObject(raw)) {
    p(at, 'a tool mapping is {action?, resource?, scope?}');
    return null;
  }
  unknownKeys(raw, MAPPING_KEYS, at, p, 'a tool mapping');
  const mapping: ToolMapping = {};
  if (raw.action !== undefined) {
    if (typeof raw.action !== 'string' || raw.action.trim() === '')
      p([...at, 'action'], "action is the operation's name, e.g. payments.transfer");
    else mapping.action = raw.action;
  }
  if (raw.resource !== undefined) {
    const problem =
      typeof raw.resource === 'string' && raw.resource !== ''
        ? templateProblem(raw.resource)
        : 'resource is a text, e.g. acct:${args.account}';
    if (problem) p([...at, 'resource'], problem);
    else mapping.resource = raw.resource as string;
  }
  const scope = parseScope(raw.scope, [...at, 'scope'], p);
  if (scope) mapping.scope = scope;
  return mapping;
}
