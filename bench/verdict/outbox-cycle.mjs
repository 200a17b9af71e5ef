#!/usr/bin/env node
// What a seal_outbox row costs PostgreSQL over its life (docs/benchmarks.md "The outbox row's lease"): rows of a
// consultation seal's size inserted in batches of 64 (as the gateway writes them with its records), leased 1,000 at a
// time with the relay's statement, then deleted, in a table of seal_outbox's shape, for each fillfactor given,
// alternated over rounds: the backend's CPU and the WAL per row in each phase, and how many leases were HOT updates.
// Starts its own durable PostgreSQL (libs/devstack).
//
//   node bench/verdict/outbox-cycle.mjs [--rows 20000] [--rounds 3] [--fillfactors 100,50]
import { runBench } from '../launch.mjs';

await runBench('verdict/outbox-cycle');
