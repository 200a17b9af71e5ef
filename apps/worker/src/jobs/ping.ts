import type { JobHandler, pingJob } from '@arbiter/queue';

/** system.v1.ping: answers with the message, proving the enqueue → worker → result path. */
export const ping: JobHandler<typeof pingJob> = async (payload) => ({ pong: payload.message, received_at: new Date().toISOString() });
