#!/usr/bin/env node
// What finding a consultation by its id costs as partitions accumulate (docs/benchmarks.md "A consultation by its
// id"): a verdict database migrated as the gateway's, one partition of consultations per day of the retention (as
// many as a tenant's retention keeps ahead), rows in each, then the gateway's lookups by id (ConsultationRepository.find)
// one after another on one connection, knowing no retention (every partition at once) and knowing the one in use:
// wall time and the backend's CPU per lookup, for each partition count given. Starts its own durable PostgreSQL
// (libs/devstack).
//
//   node bench/verdict/lookup-by-id.mjs [--partitions 90,1000] [--rows 200] [--lookups 2000]
import { runBench } from '../launch.mjs';

await runBench('verdict/lookup-by-id');
