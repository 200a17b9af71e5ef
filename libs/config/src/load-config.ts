/**
 * Env is parsed once at start by a small schema per app; a bad value stops the start
 * with a message naming the variable (docs/development.md "Conventions", README.md "Configuration").
 */
export interface FieldSpec<T> {
  parse(raw: string): T;
  default?: T;
  optional?: boolean;
  /** Never echoed in error messages. */
  secret?: boolean;
  doc?: string;
}

export type ConfigSchema = Record<string, FieldSpec<unknown>>;

export type ConfigOf<S extends ConfigSchema> = {
  [K in keyof S]: S[K] extends FieldSpec<infer T> ? (S[K] extends { optional: true } ? T | undefined : T) : never;
};

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

export function loadConfig<S extends ConfigSchema>(schema: S, env: NodeJS.ProcessEnv = process.env): ConfigOf<S> {
  const out: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [name, spec] of Object.entries(schema)) {
    const raw = env[name];
    if (raw === undefined || raw === '') {
      if (spec.default !== undefined) out[name] = spec.default;
      else if (spec.optional) out[name] = undefined;
      else problems.push(`${name} is required${spec.doc ? ` (${spec.doc})` : ''}`);
      continue;
    }
    try {
      out[name] = spec.parse(raw);
    } catch (err) {
      const shown = spec.secret ? '' : ` (got ${JSON.stringify(raw.length > 80 ? raw.slice(0, 80) + '…' : raw)})`;
      problems.push(`${name} ${(err as Error).message}${shown}`);
    }
  }
  if (problems.length) throw new ConfigError(problems);
  return out as ConfigOf<S>;
}
