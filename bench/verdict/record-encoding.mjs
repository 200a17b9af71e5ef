#!/usr/bin/env node
// How a batch of JSON texts travels to PostgreSQL (docs/benchmarks.md "Records as a binary json[]"): the
// same records inserted in batches of 64 into a table of the consultations' shape, as one JSON array split by
// json_array_elements (as the gateway did), as a text[] in text format cast to json (as the ledger did with its facts'
// payloads) and as a binary json[] parameter (as both do now), alternated over rounds: the backend's CPU and this
// process's CPU per row. Starts its own durable PostgreSQL (libs/devstack).
//
//   node bench/verdict/record-encoding.mjs [--records FILE] [--rows 20000] [--rounds 3]
//
// FILE: one stored record per line (BENCH_RECORDS_OUT of bench/verdict/bench.mjs); records of a similar size and
// shape are made when it is omitted.
import { runBench } from '../launch.mjs';

await runBench('verdict/record-encoding');
