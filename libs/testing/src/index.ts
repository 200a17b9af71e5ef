export { testPgUrl, testRedisUrl } from './env';
export { createTestDatabase } from './databases';
