#!/usr/bin/env node
// Ledger benchmark: bundles the registry and ledger services and bench/ledger/run.ts, then runs it.
//
//   node bench/ledger/bench.mjs [--quick] [--json FILE]
//
// It starts its own durable PostgreSQL (fsync and synchronous_commit on, as in production) and Redis in a
// temporary folder with libs/devstack, runs the two services as separate processes, measures, and stops
// everything. Results: docs/benchmarks.md "Ledger".
import { runBench } from '../launch.mjs';

await runBench('ledger/run', { apps: ['registry', 'ledger'] });
