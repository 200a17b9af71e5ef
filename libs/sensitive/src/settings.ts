// The tenant settings of sensitive fields (docs/verdicts.md "Sensitive fields"): `sensitive_fields`, dot paths
// `parameters.<path>` or `context.<fact name>`, and `data_subject_field`, one such path. The registry refuses a
// malformed one with the problem this module names; the gateway compiles the same settings into a SensitivePolicy.

export const MAX_SENSITIVE_FIELDS = 50;
export const MAX_SENSITIVE_PATH_LENGTH = 256;
const PREFIXES = ['parameters.', 'context.'] as const;

/** A path of the settings and the field it names: the dot path rules read (`parameters.card` and `context.card` both name `card`). */
export interface SensitivePath {
  path: string;
  field: string;
  segments: readonly string[];
}

/** What a tenant's sensitive settings make of a request: the fields whose values are committed, and where the subject is read. */
export interface SensitivePolicy {
  fields: readonly SensitivePath[];
  subject: SensitivePath | null;
}

/** Where a setting is wrong (`sensitive_fields.3`, `data_subject_field`) and why. */
export interface SettingsProblem {
  at: string;
  problem: string;
}

/** Why `path` is not a sensitive path, or null when it is one. */
export function sensitivePathProblem(path: unknown): string | null {
  if (typeof path !== 'string') return 'must be a string';
  const prefix = PREFIXES.find((p) => path.startsWith(p));
  if (!prefix) return `${JSON.stringify(path)} must start with parameters. or context.`;
  if (path.length > MAX_SENSITIVE_PATH_LENGTH) return `${JSON.stringify(path)} is longer than ${MAX_SENSITIVE_PATH_LENGTH} characters`;
  const segments = path.slice(prefix.length).split('.');
  if (segments.some((s) => s === '')) return `${JSON.stringify(path)} has an empty segment`;
  // A parsed request may carry a member __proto__, but a commitment could not stand in its place by assignment (it
  // would set the object's prototype), so no setting or rule names it (libs/policy protoPathProblems).
  if (segments.includes('__proto__')) return `${JSON.stringify(path)} names __proto__`;
  return null;
}

/** The first problem of the sensitive settings, or null (absent settings have none). */
export function sensitiveSettingsProblem(settings: { sensitive_fields?: unknown; data_subject_field?: unknown }): SettingsProblem | null {
  const problem = shapeProblem(settings);
  if (problem) return problem;
  // The subject names a person (an e-mail, a customer id): it is itself a sensitive value, committed like the others,
  // so a subject field outside the sensitive fields would leave it in the clear in the record.
  const subject = settings.data_subject_field as string | undefined;
  const fields = (settings.sensitive_fields as string[] | undefined) ?? [];
  if (subject !== undefined && !fields.includes(subject))
    return { at: 'data_subject_field', problem: `${JSON.stringify(subject)} must be one of sensitive_fields` };
  return null;
}

/** The first malformed path of the settings, or null. */
function shapeProblem(settings: { sensitive_fields?: unknown; data_subject_field?: unknown }): SettingsProblem | null {
  const fields = settings.sensitive_fields;
  if (fields !== undefined) {
    if (!Array.isArray(fields)) return { at: 'sensitive_fields', problem: 'must be an array of dot paths' };
    if (fields.length > MAX_SENSITIVE_FIELDS) return { at: 'sensitive_fields', problem: `at most ${MAX_SENSITIVE_FIELDS} paths` };
    const seen = new Set<string>();
    for (const [i, path] of fields.entries()) {
      const problem = sensitivePathProblem(path);
      if (problem) return { at: `sensitive_fields.${i}`, problem };
      if (seen.has(path as string)) return { at: `sensitive_fields.${i}`, problem: `${JSON.stringify(path)} is listed twice` };
      seen.add(path as string);
    }
  }
  const subject = settings.data_subject_field;
  if (subject !== undefined) {
    const problem = sensitivePathProblem(subject);
    if (problem) return { at: 'data_subject_field', problem };
  }
  return null;
}

function compile(path: string): SensitivePath {
  const field = path.slice(path.indexOf('.') + 1);
  return { path, field, segments: field.split('.') };
}

/**
 * The policy of valid settings: null when the tenant lists no sensitive field and no subject field (nothing is
 * committed). The subject field is always one of the fields, even in settings stored before the registry required
 * it. Throws when a path is malformed (the registry never serves such settings; the gateway then refuses to build
 * the snapshot rather than store a value it was told to protect).
 */
export function sensitivePolicy(settings: { sensitive_fields?: unknown; data_subject_field?: unknown }): SensitivePolicy | null {
  const problem = shapeProblem(settings);
  if (problem) throw new Error(`settings.${problem.at}: ${problem.problem}`);
  const subject = settings.data_subject_field as string | undefined;
  const fields = [...((settings.sensitive_fields as string[] | undefined) ?? []), ...(subject === undefined ? [] : [subject])];
  if (fields.length === 0) return null;
  // parameters.x and context.x name one field: it is protected once, wherever the request carries it.
  const byField = new Map(fields.map((p) => [compile(p).field, compile(p)]));
  return { fields: [...byField.values()], subject: subject === undefined ? null : compile(subject) };
}

/**
 * Whether a rule's key path (`parameters.<field>` of a limit's `by`) reads a sensitive value: the field is
 * sensitive, lies under one, or holds one.
 */
export function keyPathIsSensitive(policy: SensitivePolicy, keyPath: string): boolean {
  if (!keyPath.startsWith('parameters.')) return false;
  const field = keyPath.slice('parameters.'.length);
  return policy.fields.some((f) => f.field === field || field.startsWith(`${f.field}.`) || f.field.startsWith(`${field}.`));
}
