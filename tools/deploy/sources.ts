/* eslint-disable arbiter/module-boundaries -- The deploy checks read what each app declares (its env schema) and
   use the test harness's databases, as every project's tests do; the boundary rule has no entry for type:tooling.
   This module is the only place tools/deploy reaches into other projects. */
import type { FieldSpec } from '@arbiter/config';
import { CLOSE_HOOKS_MS } from '@arbiter/http';
import { createTestDatabase, testPgUrl, testRedisUrl } from '@arbiter/testing';
import { registryConfigSchema } from '../../apps/registry/src/config';
import { verdictConfigSchema } from '../../apps/verdict/src/config';
import { ledgerConfigSchema } from '../../apps/ledger/src/config';
import { workerConfigSchema } from '../../apps/worker/src/config';

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
