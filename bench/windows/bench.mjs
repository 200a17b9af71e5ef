#!/usr/bin/env node
// Window store microbenchmark (docs/benchmarks.md "Policies that remember", docs/adr/0033-windows-in-postgresql.md):
// bundles bench/windows/run.ts and runs it.
//
//   node bench/windows/bench.mjs [--seconds 5] [--rounds 2] [--keys 1,1000] [--callers 64] [--stores pg,product,product-batch,pg-batch,redis]
//                                [--product-sql FILE]   (default: the window migrations of prisma/verdict, in order)
//                                [--window 2s] [--json FILE]
//
// It starts its own durable PostgreSQL (fsync and synchronous_commit on) with libs/devstack and a redis-server with
// `appendonly yes` and `appendfsync always` in a temporary folder, measures a take (a window's conditional,
// all-or-nothing consumption) against each store in turn (A, B, A, B, ...), and stops both.
import { runBench } from '../launch.mjs';

await runBench('windows/run');
