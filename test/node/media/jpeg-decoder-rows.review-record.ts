/**
 * Records test/fixtures/jpegdec/review/rows-golden-f0c14db.json for jpeg-decoder-rows.review.test.ts: per seed, the
 * digest of its cases' outputs (or statuses) at every scale decoded by the kernel at the path given (the build of
 * wasm/jpegdec at f0c14db, before row-by-row AC scans), one instance for all of them.
 *   npx tsx test/node/media/jpeg-decoder-rows.review-record.ts <jpegdec.wasm> > test/fixtures/jpegdec/review/rows-golden-f0c14db.json
 */
import { readFileSync } from "node:fs";
import { instantiate } from "./jpeg-decoder.review-corpus.ts";
import { SEEDS, seedDigest } from "./jpeg-decoder-rows.review-gen.ts";

const Module = WebAssembly.Module as unknown as new (bytes: Uint8Array) => WebAssembly.Module;
const k = instantiate(new Module(readFileSync(process.argv[2]!)));
const out: Record<string, string> = {};
for (const seed of SEEDS) out[seed] = seedDigest(k, seed).combined;
process.stdout.write(`${JSON.stringify(out, null, 1)}\n`);
