export { LoggedJobFailure, QueueError } from './errors';
export type { QueueErrorCode } from './errors';
export { defineJob, JOB_NAME_PATTERN, QUEUE_NAME_PATTERN, DEFAULT_REMOVE_ON_COMPLETE, DEFAULT_REMOVE_ON_FAIL } from './job';
export type { JobDefinition, JobSpec, AnyJobDefinition, RetryPolicy, KeepJobs, PayloadOf, ResultOf } from './job';
export { defineCatalog, findJob, queuesOf } from './job-catalog';
export type { JobCatalog } from './job-catalog';
export { checkHandlers } from './handlers';
export type { JobHandler, JobContext, HandlerMap } from './handlers';
export {
  jobCatalog,
  pingJob,
  webhookDeliverJob,
  webhookDeliverJobId,
  ledgerSealJob,
  ledgerSealJobId,
  notificationSendJob,
  notificationSendJobId,
  maintenanceJob,
  MAINTENANCE_SCHEDULER_ID,
} from './catalog';
export type {
  ArbiterJobCatalog,
  ArbiterJobName,
  PingPayload,
  PingResult,
  WebhookDeliverPayload,
  WebhookDeliverResult,
  LedgerSealItem,
  LedgerSealPayload,
  LedgerSealResult,
  MaintenancePayload,
  MaintenanceResult,
} from './catalog';
export { DEFAULT_PREFIX } from './prefix';
export { createRedisConnection, closeRedisConnection } from './connection';
export type { RedisConnectionOptions } from './connection';
export { createProducer } from './producer';
export type { Producer, ProducerOptions, EnqueueOptions, EnqueuedJob } from './producer';
export { startWorkers } from './workers';
export type { StartWorkersOptions, RunningWorkers } from './workers';
export { queueDepths } from './depths';
export type { QueueDepth } from './depths';
export { waitForResult } from './wait-for-result';
export { OUTBOX_NUDGE_CHANNEL, NUDGE_OWNERS, OutboxNudger, parseNudge, subscribeNudges } from './nudge';
export type { NudgeOwner } from './nudge';
