// What tools/deploy reads from other projects: each app's environment schema, through the app's public
// `config` entry point (its package.json "exports"; tools/eslint/module-boundaries.cjs allows tooling
// no other way into an app), and the test harness's databases, as every project's tests use them.
import type { FieldSpec } from '@arbiter/config';
import { CLOSE_HOOKS_MS } from '@arbiter/http';
import { createTestDatabase, testPgUrl, testRedisUrl } from '@arbiter/testing';
import { ledgerConfigSchema } from '@arbiter/ledger/config';
import { registryConfigSchema } from '@arbiter/registry/config';
import { verdictConfigSchema } from '@arbiter/verdict/config';
import { workerConfigSchema } from '@arbiter/worker/config';

export { CLOSE_HOOKS_MS, createTestDatabase, testPgUrl, testRedisUrl };

export const SERVICES = ['registry', 'verdict', 'ledger'] as const;
export const APPS = [...SERVICES, 'worker'] as const;
export type App = (typeof APPS)[number];
export type Service = (typeof SERVICES)[number];

const schemas: Record<App, Record<string, FieldSpec<unknown>>> = {
  registry: registryConfigSchema,
  verdict: verdictConfigSchema,
  ledger: ledgerConfigSchema,
  worker: workerConfigSchema,
};

export interface EnvVar {
  name: string;
  /** No default and not optional: the process refuses to start without it. */
  required: boolean;
  /** Never echoed by the config loader; must come from a Secret. */
  secret: boolean;
  default?: unknown;
}

/** Every variable an app reads, from its config schema (apps/<app>/src/config.ts). */
export function envVarsOf(app: App): EnvVar[] {
  return Object.entries(schemas[app]).map(([name, spec]) => ({
    name,
    required: spec.default === undefined && !spec.optional,
    secret: spec.secret === true,
    default: spec.default,
  }));
}
