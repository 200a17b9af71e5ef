/**
 * The servers the Jest global setup started (libs/testing/src/global-setup.ts) and handed to the workers through
 * the environment.
 */

function required(name: string): string {
  const value = process.env[name];
  if (!value) {
    throw new Error(
      `${name} is not set: integration tests need the real PostgreSQL and Redis that the Jest global setup starts. ` +
        'Run the tests from the repository root (npx jest, npm test) rather than from a project folder, ' +
        `or set ${name} to a server of your own.`,
    );
  }
  return value;
}

/** Superuser URL to the `postgres` database of the test server. */
export function testPgUrl(): string {
  return required('ARBITER_TEST_PG_URL');
}

/** URL of the test Redis server. */
export function testRedisUrl(): string {
  return process.env.ARBITER_TEST_REDIS_URL || required('REDIS_URL');
}
