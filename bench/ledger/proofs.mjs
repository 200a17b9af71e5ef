#!/usr/bin/env node
// Merkle proof benchmark: bundles the registry and ledger services and bench/ledger/proofs.ts, then runs it.
//
//   node bench/ledger/proofs.mjs [--facts 1000000] [--requests 2000] [--json FILE]
//
// It starts its own durable PostgreSQL and Redis in a temporary folder with libs/devstack, runs the
// two services as separate processes, measures, and stops everything. Results: docs/benchmarks.md "Merkle proofs".
import { runBench } from '../launch.mjs';

await runBench('ledger/proofs', { apps: ['registry', 'ledger'] });
