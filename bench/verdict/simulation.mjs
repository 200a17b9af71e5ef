#!/usr/bin/env node
// Simulation benchmark: bundles the registry and verdict services and
// bench/verdict/simulation.ts, then runs it.
//
//   node bench/verdict/simulation.mjs [--consultations 100000] [--rounds 3] [--rules 100] [--json FILE]
//
// It starts its own durable PostgreSQL and Redis in a temporary folder with libs/devstack, runs the
// registry and the verdict gateway as separate processes, stores the consultations, times the
// simulation through HTTP, and stops everything. Results: docs/benchmarks.md "Simulation".
import { runBench } from '../launch.mjs';

await runBench('verdict/simulation', { apps: ['registry', 'verdict'] });
