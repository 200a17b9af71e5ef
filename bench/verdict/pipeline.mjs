#!/usr/bin/env node
// The gateway's per-check work without HTTP or the database, piece by piece: bundles
// bench/verdict/pipeline.ts and runs it (node bench/verdict/pipeline.mjs). docs/benchmarks.md "Verdict".
import { runBench } from '../launch.mjs';

await runBench('verdict/pipeline');
