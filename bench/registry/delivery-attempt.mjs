#!/usr/bin/env node
// What a webhook delivery costs PostgreSQL as partitions accumulate (docs/benchmarks.md "A webhook attempt"): a
// registry database migrated as the service's, one partition a day of events (90, the default retention of events)
// and of deliveries and their attempts (30), rows in each, then the registry's own relay and delivery services on
// one connection: events appended, fanned out to one subscription and leased (OutboxRelayService.relay), then one
// attempt each (WebhookDeliveryService.attempt, its HTTP send answered at once in process): the backend's CPU and
// the statements per event. Starts its own durable PostgreSQL (libs/devstack).
//
//   node bench/registry/delivery-attempt.mjs [--event-partitions 90] [--delivery-partitions 30] [--rows 200] [--events 500] [--rounds 3]
import { runBench } from '../launch.mjs';

await runBench('registry/delivery-attempt');
