import { Client } from 'pg';
import request, { type Response } from 'supertest';
import { openApiValidator } from '@arbiter/testing';
import spec from '../openapi.json';
import type { RegistryHarness } from './harness';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** A caller with one API key against the test registry. */
export interface Api {
  get(path: string): request.Test;
  post(path: string, body?: object): request.Test;
  put(path: string, body?: object): request.Test;
  patch(path: string, body?: object): request.Test;
  delete(path: string): request.Test;
}

export function api(h: RegistryHarness, key: string): Api {
  const auth = { Authorization: `Bearer ${key}` };
  return {
    get: (path) => request(h.url).get(path).set(auth),
    post: (path, body) =>
      request(h.url)
        .post(path)
        .set(auth)
        .send(body ?? {}),
    put: (path, body) =>
      request(h.url)
        .put(path)
        .set(auth)
        .send(body ?? {}),
    patch: (path, body) => {
      const r = request(h.url).patch(path).set(auth);
      return body === undefined ? r : r.send(body);
    },
    delete: (path) => request(h.url).delete(path).set(auth),
  };
}

export async function createScope(a: Api, name: string, selector: object = {}): Promise<{ id: string; selector: object }> {
  return (await a.post('/api/v1/scopes', { name, selector }).expect(201)).body;
}

/** Runs SQL against the registry's test database (to age an override, to read raw rows). */
export async function sql<T extends object = Record<string, unknown>>(
  h: RegistryHarness,
  text: string,
  params: unknown[] = [],
): Promise<T[]> {
  const c = new Client({ connectionString: h.databaseUrl });
  await c.connect();
  try {
    return (await c.query(text, params)).rows as T[];
  } finally {
    await c.end();
  }
}

/** Makes an override expired, as if its expires_at had passed (tests never wait for the clock). */
export async function expireOverride(h: RegistryHarness, id: string): Promise<void> {
  await sql(h, `UPDATE overrides SET expires_at = now() - interval '1 second' WHERE id = $1`, [id]);
}

const openapi = openApiValidator(spec);

/**
 * Checks a response against the committed OpenAPI document: the documented schema of that path,
 * method and status must accept the body exactly (no undocumented fields: tsoa marks every
 * schema additionalProperties false).
 */
export function expectConforms(res: Response, method: Method, path: string): void {
  const key = `${method} ${path} ${res.status}`;
  const validate = openapi.schemaAt(path, method, { status: String(res.status) });
  if (!validate) throw new Error(`OpenAPI documents no ${key} response`);
  if (!validate(res.body)) {
    throw new Error(
      `${key} does not match the OpenAPI document: ${openapi.errorsText(validate)}\n${JSON.stringify(res.body).slice(0, 2000)}`,
    );
  }
}

/** A hand-built RFC 8785 canonical JSON, independent of @arbiter/canonical, for the JSON the API returns. */
export function jcs(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(jcs).join(',')}]`;
  if (value && typeof value === 'object') {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${jcs((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  if (typeof value === 'number' && !Number.isInteger(value)) throw new Error('jcs() in tests handles integers only');
  return JSON.stringify(value);
}
