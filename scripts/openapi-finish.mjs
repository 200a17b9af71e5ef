// Finishes an OpenAPI document as tsoa wrote it, so that tools can trust it (docs/development.md "The API contract").
// tsoa cannot say some things, or says them in a form OpenAPI 3.0 ignores; this step, run by `npm run generate` right
// after tsoa and by tools/openapi-fresh.spec.ts on a fresh tsoa document, adds or rewrites exactly these:
//  - `nullable` beside a lone `allOf` (tsoa's `T | null` for a model T) becomes `anyOf: [T, null]`, and a `$ref` with
//    siblings (a property's description or example) becomes `allOf: [$ref]` with them: 3.0 ignores siblings of `$ref`;
//  - the answers libs/http gives on every route of a kind, where a controller leaves them out: 401 and 403 on an
//    authenticated operation (and 503 when the registry cannot check the key or find the tenant), 400 on one with
//    parameters (outside their schema, a bad cursor, U+0000) or a body (malformed JSON, a field of the wrong type),
//    413 and 415 on one with a body; where the operation answers that status with a body of its own, either body;
//  - the response headers the code sets (HEADERS below: per service, operation and status), declared once under
//    components.headers; the 405 with Allow that every known path answers for a method it does not list, as a
//    general answer in info.description (it is no operation's answer: the operation's method is allowed);
//  - an example on every request and response body that has none: errors from the codes their description names,
//    bodies sampled from their schema by openapi-sampler (the schema's own examples, formats and enums first); a
//    plain string property of a model without an example gets one from its name first (ids with their prefix,
//    timestamps, hashes: PROPERTY_EXAMPLES), so that samples read like real bodies.
// With `--structure-only` (the internal documents) only the first point applies. Usage: node scripts/openapi-finish.mjs <file> [--structure-only]
import { readFileSync, writeFileSync } from 'node:fs';
import OpenAPISampler from 'openapi-sampler';

const ERROR_REF = '#/components/schemas/ErrorBody';
const JSON_TYPE = 'application/json';

/** The registry's and the verdict gateway's answers to an oversize body or one that is not JSON. */
const BODY_LIMITS = {
  tooLarge: 'payload_too_large: the body is larger than the service accepts',
  mediaType: 'unsupported_media_type: a body that is not application/json',
};

/** What libs/http answers in each service's dialect (libs/http/src/dialects.ts). */
const DIALECTS = {
  registry: {
    body: (code, message) => ({ detail: message ?? code }),
    codes: {},
    unauthorized: 'Missing or invalid API key',
    unavailable: 'unavailable: the API key cannot be checked right now; retry',
    forbidden: 'Missing permission',
    badBody: 'malformed_json (the body is not JSON) or validation_failed (a field of the wrong type, an unknown field)',
    badParameter: 'validation_failed: a parameter outside its schema, a cursor the service did not make, or a string holding U+0000',
    ...BODY_LIMITS,
  },
  verdict: {
    body: (code, message) => ({ code, message: message ?? code }),
    codes: {
      400: 'validation_failed',
      401: 'invalid_credentials',
      403: 'insufficient_permission',
      404: 'not_found',
      413: 'payload_too_large',
      415: 'unsupported_media_type',
      500: 'internal_error',
    },
    unauthorized: 'missing_credentials, invalid_credentials',
    unavailable:
      'auth_unavailable (the credentials cannot be checked right now), registry_unavailable (the tenant cannot be looked up right now); retry',
    forbidden: 'insufficient_permission, principal_deactivated, cross_tenant_forbidden',
    badBody: 'malformed_json (the body is not JSON), validation_failed (a field of the wrong type, an unknown field)',
    badParameter: 'invalid_query (a parameter outside its schema), invalid_cursor, validation_failed',
    ...BODY_LIMITS,
  },
  ledger: {
    body: (code, message) => ({ code, message: message ?? code }),
    codes: {
      400: 'VALIDATION_ERROR',
      401: 'UNAUTHORIZED',
      403: 'FORBIDDEN',
      404: 'NOT_FOUND',
      429: 'RATE_LIMITED',
      500: 'INTERNAL_ERROR',
      503: 'SERVICE_UNAVAILABLE',
    },
    unauthorized: 'UNAUTHORIZED: missing or invalid API key',
    unavailable: 'SERVICE_UNAVAILABLE: the API key cannot be checked right now; retry',
    forbidden: 'FORBIDDEN: missing permission',
    badBody: 'VALIDATION_ERROR: the body is not JSON, is not application/json, is too large, or a field is wrong',
    badParameter: 'VALIDATION_ERROR: a parameter outside its schema, a cursor the service did not make, or a string holding U+0000',
  },
};

const HEADER_DEFS = {
  'X-Verdict-TTL': {
    description:
      'Seconds the verdict may be acted on: the X-Verdict-TTL asked for when it is shorter than the tenant verdict_ttl_seconds, else that; complete answers only.',
    schema: { type: 'integer', minimum: 1, maximum: 3600 },
  },
  'X-Consultation-Id': {
    description: 'The id of the committed consultation; complete answers only.',
    schema: { type: 'string', example: 'cns-0f3a9c1e5b7d2a4c6e8f0a1b' },
  },
  'Cache-Control': { description: 'How long the answer may be cached.', schema: { type: 'string' } },
  'Set-Cookie': {
    description: 'The session cookie `arbiter_session` (HttpOnly, Secure, SameSite=Strict), or its removal.',
    schema: { type: 'string' },
  },
  'Retry-After': { description: 'Seconds to wait before asking again.', schema: { type: 'integer', minimum: 1 } },
  'X-RateLimit-Limit': { required: true, description: "The tier's requests per minute.", schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { required: true, description: 'Whole tokens left in the bucket.', schema: { type: 'integer', minimum: 0 } },
  'X-RateLimit-Reset': { required: true, description: 'Seconds until the bucket is full.', schema: { type: 'integer', minimum: 0 } },
  'X-RateLimit-Policy': {
    required: true,
    description: '`<per minute>;w=60;burst=<burst>`',
    schema: { type: 'string', example: '600;w=60;burst=100' },
  },
};
const RATE_LIMIT = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'X-RateLimit-Policy'];

/**
 * Which operation answers which header, by service, operationId ('*': every operation) and status ('*': every status).
 * The contract test (e2e/src/contract.e2e.spec.ts) fails when a service sends one of these headers undeclared.
 */
const HEADERS = {
  verdict: {
    // Every 503 of the gateway may say when to retry (registry_unavailable, policy_unavailable, ledger_unavailable do).
    '*': { 503: ['Retry-After'] },
    Check: { 200: ['X-Verdict-TTL', 'X-Consultation-Id'] },
    Resolve: { 200: ['X-Verdict-TTL', 'X-Consultation-Id'] },
    GetConsultationEvidence: { 409: ['Retry-After'] },
    OpenSession: { 201: ['Set-Cookie', 'Cache-Control'] },
    EndSession: { 204: ['Set-Cookie'] },
    Jwks: { 200: ['Cache-Control'] },
  },
  registry: {
    WebhookKey: { 200: ['Cache-Control'] },
    GetRuleShadow: { 503: ['Retry-After'] },
  },
  ledger: {
    '*': { '*': RATE_LIMIT, 429: ['Retry-After'] },
    LedgerKeys: { 200: ['Cache-Control'] },
  },
};

const HEX = '0f3a9c1e5b7d2a4c6e8f0a1b';
const ID_PREFIXES = [
  [/^(tenant_id)$/, 'tnt-'],
  [/^(scope_id|from_scope_id|to_scope_id|parent_id)$/, 'scp-'],
  [/^(rule_version_id|current_version_id|trigger_version_id)$/, 'rv-'],
  [/^(rule_id|dominating_rule_id|entry_id|target_id|trigger_id|overridden_by)$/, 'rul-'],
  [/^(consultation_id)$/, 'cns-'],
  [/^(override_id)$/, 'ovr-'],
  [/^(approval_id)$/, 'apr-'],
  [
    /^(created_by|decided_by|approved_by|requested_by|principal_id|caller_principal_id|decider_principal_id|actor_id|on_behalf_of|requester_principal)$/,
    'hum-',
  ],
  [/^(key_id)$/, 'key-'],
  [/^(fact_id|head_fact_id|parent_fact_id|broken_fact_id)$/, 'fct-'],
  [/^(bundle_id)$/, 'bnd-'],
  [/^(subscription_id)$/, 'whk-'],
  [/^(event_id)$/, 'evt-'],
];
/** `id` of a model: its prefix from the model's name. */
const MODEL_PREFIXES = [
  [/RuleVersion/, 'rv-'],
  [/Scope/, 'scp-'],
  [/Rule/, 'rul-'],
  [/Invariant/, 'inv-'],
  [/Decision/, 'dec-'],
  [/Override/, 'ovr-'],
  [/Approval/, 'apr-'],
  [/Reference/, 'ref-'],
  [/Link/, 'lnk-'],
  [/Namespace/, 'ns-'],
  [/Delivery/, 'dlv-'],
  [/Webhook/, 'whk-'],
  [/ApiKey/, 'key-'],
  [/Principal/, 'hum-'],
  [/Tenant/, 'tnt-'],
  [/Consultation/, 'cns-'],
];
const TIME = '2026-11-26T09:30:00.000Z';
const PROPERTY_EXAMPLES = [
  [/(_at|_iso|^not_before|^not_after|^since|^until|^as_of|_until)$/, TIME],
  [/(^|_)hash$/, `sha256:${HEX}${HEX}${HEX.slice(0, 16)}`],
  [/^(slug|tenant_slug)$/, 'acme'],
  [/^name$/, 'payments'],
  [/^next_cursor$/, 'eyJhdCI6IjIwMjYtMTEtMjYiLCJpZCI6InNjcC0wIn0'],
  [/^stream_id$/, 'payments.audit'],
  [/^action$/, 'payments.transfer'],
  [/^resource$/, 'acct:eu/4471'],
  [/^(kid|current_kid|signing_kid)$/, 'vk-2026-01'],
  [/^(url|endpoint)$/, 'https://hooks.example.com/arbiter'],
  [/^directive$/, 'Transfers above 10,000 need CFO approval'],
];

/** An example for a plain string property from its name (and its model's), or undefined. */
function exampleFor(model, property) {
  if (property === 'id') {
    const prefix = MODEL_PREFIXES.find(([re]) => re.test(model))?.[1];
    return prefix && `${prefix}${HEX}`;
  }
  const prefix = ID_PREFIXES.find(([re]) => re.test(property))?.[1];
  if (prefix) return `${prefix}${HEX}`;
  return PROPERTY_EXAMPLES.find(([re]) => re.test(property))?.[1];
}

function addPropertyExamples(doc) {
  for (const [model, schema] of Object.entries(doc.components?.schemas ?? {})) {
    for (const [property, prop] of Object.entries(schema.properties ?? {})) {
      const plain = prop.type === 'string' && prop.example === undefined && !prop.enum && !prop.pattern && !prop.format;
      const example = plain ? exampleFor(model, property) : undefined;
      if (example !== undefined) prop.example = example;
    }
  }
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** 3.0 ignores siblings of `$ref`, and `nullable` needs a `type` beside it: rewrite both the way 3.0 means them. */
export function fixStructure(node) {
  if (Array.isArray(node)) return node.map(fixStructure);
  if (!node || typeof node !== 'object') return node;
  const out = {};
  for (const [k, v] of Object.entries(node)) out[k] = k === 'example' || k === 'examples' ? v : fixStructure(v);
  if (out.$ref && Object.keys(out).length > 1) {
    const { $ref, ...siblings } = out;
    return fixStructure({ ...siblings, allOf: [{ $ref }] });
  }
  if (out.nullable === true && out.type === undefined && Array.isArray(out.allOf) && out.allOf.length === 1) {
    const { allOf, ...rest } = out;
    delete rest.nullable;
    return { ...rest, anyOf: [allOf[0], { type: 'object', nullable: true, enum: [null] }] };
  }
  return out;
}

function operations(doc) {
  const ops = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) if (item[method]) ops.push({ path, method, op: item[method] });
  }
  return ops;
}

/** The first error code a response description names (`insufficient_context: ...`, `VALIDATION_ERROR`), if any. */
function codeOf(description) {
  const m = /^([A-Za-z]+(?:_[A-Za-z]+)+|[A-Z]{3,})\b/.exec(description ?? '');
  return m?.[1];
}

function addGenericResponses(doc, app) {
  const d = DIALECTS[app];
  const add = (op, status, description) => {
    if (!description) return;
    const existing = op.responses[status];
    const media = existing?.content?.[JSON_TYPE];
    if (media?.schema && media.schema.$ref !== ERROR_REF && !media.schema.anyOf?.some((s) => s.$ref === ERROR_REF)) {
      // The operation answers this status with a body of its own (the ledger's /health 503): the error body too.
      media.schema = { anyOf: [media.schema, { $ref: ERROR_REF }] };
      existing.description = `${existing.description}; or ${description}`;
    }
    if (existing) return;
    op.responses[status] = { description, content: { [JSON_TYPE]: { schema: { $ref: ERROR_REF } } } };
  };
  for (const { path, op } of operations(doc)) {
    const secured = (op.security ?? []).some((req) => Object.keys(req).length > 0);
    if (secured) {
      add(op, '401', d.unauthorized);
      add(op, '403', d.forbidden);
    }
    // Credentials are checked with the registry (a cache in front), and the verdict gateway looks tenants up there.
    if (secured || (app === 'verdict' && /\{tenant_(id|slug)\}/.test(path))) add(op, '503', d.unavailable);
    if (op.requestBody) add(op, '400', d.badBody);
    if ((op.parameters ?? []).length) add(op, '400', d.badParameter);
    if (op.requestBody) {
      add(op, '413', d.tooLarge);
      add(op, '415', d.mediaType);
    }
    const ordered = {};
    for (const s of Object.keys(op.responses).sort()) ordered[s] = op.responses[s];
    op.responses = ordered;
  }
  // A general answer, not one of any operation: every known path answers a method it does not list with 405.
  const allow =
    'Every path of this document answers a method it does not list with 405 and an Allow header naming the methods it does list (a path it does not list is 404).';
  if (!doc.info.description?.includes(allow))
    doc.info.description = `${doc.info.description ?? ''}${doc.info.description ? ' ' : ''}${allow}`;
}

function addHeaders(doc, app) {
  const table = HEADERS[app] ?? {};
  const used = new Set();
  for (const { op } of operations(doc)) {
    for (const [status, response] of Object.entries(op.responses)) {
      const names = [];
      for (const key of ['*', op.operationId]) {
        const byStatus = table[key];
        if (!byStatus) continue;
        names.push(...(byStatus['*'] ?? []), ...(byStatus[status] ?? []));
      }
      if (!names.length) continue;
      response.headers = { ...response.headers };
      for (const name of names) {
        response.headers[name] = { $ref: `#/components/headers/${name}` };
        used.add(name);
      }
    }
  }
  doc.components.headers = { ...doc.components.headers };
  for (const name of Object.keys(HEADER_DEFS)) if (used.has(name)) doc.components.headers[name] = HEADER_DEFS[name];
}

function addExamples(doc, app) {
  const sample = (schema) => OpenAPISampler.sample(schema, { skipReadOnly: false, skipWriteOnly: true, quiet: true }, doc);
  for (const { op } of operations(doc)) {
    const body = op.requestBody?.content?.[JSON_TYPE];
    if (body && body.example === undefined && !body.examples) {
      body.example = sample(body.schema);
    }
    for (const [status, response] of Object.entries(op.responses)) {
      const media = response.content?.[JSON_TYPE];
      if (!media || media.example !== undefined || media.examples) continue;
      if (media.schema?.$ref === ERROR_REF) {
        const code = codeOf(response.description) ?? DIALECTS[app].codes[status] ?? 'error';
        media.example = DIALECTS[app].body(code, response.description);
      } else {
        media.example = sample(media.schema);
      }
    }
  }
}

/** The whole finishing step on a parsed document of service `app` (registry, verdict, ledger). */
export function finishDocument(doc, app, { structureOnly = false } = {}) {
  const fixed = fixStructure(doc);
  if (structureOnly) return fixed;
  fixed.components = fixed.components ?? {};
  addGenericResponses(fixed, app);
  addHeaders(fixed, app);
  addPropertyExamples(fixed);
  addExamples(fixed, app);
  return fixed;
}

/** tsoa writes tab-indented JSON; so does this step. */
export function finishFile(file, app, opts) {
  const doc = JSON.parse(readFileSync(file, 'utf8'));
  writeFileSync(file, `${JSON.stringify(finishDocument(doc, app, opts), null, '\t')}\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [file, ...flags] = process.argv.slice(2);
  const app = flags.find((f) => !f.startsWith('--')) ?? /apps\/([^/]+)\//.exec(file)?.[1];
  finishFile(file, app, { structureOnly: flags.includes('--structure-only') });
}
