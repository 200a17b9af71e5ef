export { testPgUrl, testRedisUrl } from './env';
export { createTestDatabase } from './databases';
export { schemaMismatches } from './schema-check';
