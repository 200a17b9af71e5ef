/**
 * BullMQ key prefix of the project: every key is `<prefix>:<queue>:...`. Tests use a unique
 * prefix per run so parallel test files share one Redis without seeing each other's jobs.
 */
export const DEFAULT_PREFIX = 'arbiter';
