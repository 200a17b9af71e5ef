import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DevstackError } from './errors';

/** The secrets the embedded default generates once and keeps under .data/ (README.md "Configuration"). */
export interface StackSecrets {
  /** Service-to-service shared secret. */
  INTERNAL_TOKEN: string;
  /** base64 of 32 random bytes: AES-256-GCM key for private keys at rest (docs/verdicts.md "Signing keys"). */
  KEY_ENCRYPTION_KEY: string;
  /** ak-<64 hex>: the platform admin key the registry ensures at start. */
  BOOTSTRAP_ADMIN_KEY: string;
}

export const SECRET_NAMES = ['INTERNAL_TOKEN', 'KEY_ENCRYPTION_KEY', 'BOOTSTRAP_ADMIN_KEY'] as const;

const generators: Record<keyof StackSecrets, () => string> = {
  INTERNAL_TOKEN: () => crypto.randomBytes(32).toString('hex'),
  KEY_ENCRYPTION_KEY: () => crypto.randomBytes(32).toString('base64'),
  BOOTSTRAP_ADMIN_KEY: () => `ak-${crypto.randomBytes(32).toString('hex')}`,
};

export interface LoadedSecrets {
  /** What the services get: the environment's value where one is given, the stored one otherwise. */
  secrets: StackSecrets;
  /** Where each value came from. */
  sources: Record<keyof StackSecrets, 'env' | 'file' | 'generated'>;
}

/**
 * Reads `file`, generates whatever it lacks and writes it back (mode 0600), so a second start reuses the same
 * secrets (the admin key keeps working, encrypted keys stay readable). A value set in `env` wins over the file for
 * this run; the file still keeps its own value for later runs without the variable.
 */
export function loadOrCreateSecrets(file: string, env: NodeJS.ProcessEnv = process.env): LoadedSecrets {
  let stored: Partial<StackSecrets> = {};
  if (fs.existsSync(file)) {
    try {
      stored = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<StackSecrets>;
    } catch (err) {
      throw new DevstackError('invalid_secrets', `${file} is not valid JSON; fix or delete it (new secrets are then generated)`, {
        cause: err,
      });
    }
  }
  const sources = {} as LoadedSecrets['sources'];
  const complete = { ...stored } as StackSecrets;
  let changed = false;
  for (const name of SECRET_NAMES) {
    if (typeof complete[name] !== 'string' || complete[name] === '') {
      complete[name] = generators[name]();
      sources[name] = 'generated';
      changed = true;
    } else {
      sources[name] = 'file';
    }
  }
  if (changed) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `${JSON.stringify(complete, null, 2)}\n`, { mode: 0o600 });
  }
  // writeFileSync keeps an existing file's mode; secrets must not stay readable by others.
  fs.chmodSync(file, 0o600);

  const secrets = { ...complete };
  for (const name of SECRET_NAMES) {
    const given = env[name];
    if (given) {
      secrets[name] = given;
      sources[name] = 'env';
    }
  }
  return { secrets, sources };
}
