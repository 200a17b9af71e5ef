export { testPgUrl, testRedisUrl } from './env';
export { createTestDatabase } from './databases';
export { schemaMismatches } from './schema-check';
export { typeDiagnostics, expectErrorLines, itChecksTenantScoping } from './type-check';
export type { TypeDiagnostic } from './type-check';
export { openApiValidator, toJsonSchema, pointer } from './openapi';
export type { OpenApiValidator } from './openapi';
