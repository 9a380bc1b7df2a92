/**
 * Mutation fuzzing of the inspector: every fixture is mutated thousands of times in total (bit flips,
 * truncations, length-field overwrites, splices from other fixtures, duplicated and deleted spans) with a
 * seeded PRNG, and each result must be a well-formed InspectionResult, produced without throwing, without
 * an internal error, deterministically, and quickly. A failure prints its seed and case number to replay.
 */
import { describe, expect, it } from "vitest";
import { FORMATS } from "../../../src/catalog/formats";
import { ByteSniffingInspector } from "../../../src/media/inspect/index";
import { prng } from "../../support/prng";
import { fixture } from "../support/helpers";
import { assertValidResult, CONTRACT_VIOLATIONS, FIXTURE_FACTS } from "./inspector-conformance";

const SEED = 0x5eed1e55;
const CASES_PER_FIXTURE = 400;
/** Far above any one inspection (milliseconds), far below a runaway one. */
const RUNAWAY_MS = 15_000;
const LENGTH_VALUES = [0, 1, 7, 8, 9, 0x7f, 0x80, 0xff, 0xffff, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff];

type Rand = () => number;

function mutate(input: Uint8Array, rand: Rand, pool: Uint8Array[]): Uint8Array {
  let b = input.slice();
  const pick = (n: number) => Math.floor(rand() * n);
  const edits = 1 + pick(4);
  for (let e = 0; e < edits && b.length > 0; e++) {
    const at = pick(b.length);
    switch (pick(7)) {
      case 0: // bit flip
        b[at] = b[at]! ^ (1 << pick(8));
        break;
      case 1: // random byte
        b[at] = pick(256);
        break;
      case 2: // truncation
        b = b.slice(0, at);
        break;
      case 3: {
        // length-field corruption: a 16- or 32-bit boundary value in either byte order
        const v = LENGTH_VALUES[pick(LENGTH_VALUES.length)]!;
        const width = rand() < 0.5 ? 2 : 4;
        const little = rand() < 0.5;
        for (let k = 0; k < width && at + k < b.length; k++) {
          const shift = 8 * (little ? k : width - 1 - k);
          b[at + k] = (v / 2 ** shift) & 0xff;
        }
        break;
      }
      case 4: {
        // splice a span of another fixture in
        const other = pool[pick(pool.length)]!;
        const from = pick(other.length);
        const span = other.subarray(from, from + 1 + pick(96));
        const out = new Uint8Array(b.length + span.length);
        out.set(b.subarray(0, at));
        out.set(span, at);
        out.set(b.subarray(at), at + span.length);
        b = out;
        break;
      }
      case 5: {
        // duplicate a span (repeated boxes, chunks, frames)
        const span = b.slice(at, at + 1 + pick(64));
        const out = new Uint8Array(b.length + span.length);
        out.set(b.subarray(0, at + span.length));
        out.set(span, at + span.length);
        out.set(b.subarray(at + span.length), at + 2 * span.length);
        b = out;
        break;
      }
      default: {
        // delete a span
        const end = Math.min(b.length, at + 1 + pick(64));
        const out = new Uint8Array(b.length - (end - at));
        out.set(b.subarray(0, at));
        out.set(b.subarray(end), at);
        b = out;
      }
    }
  }
  return b;
}

describe("ByteSniffingInspector fuzz", () => {
  const inspector = new ByteSniffingInspector();
  const names = [...Object.keys(FIXTURE_FACTS), ...Object.keys(CONTRACT_VIOLATIONS)];
  const pool = names.map((n) => fixture(n));
  const mediaTypes = FORMATS.map((f) => f.media_type);
  const counts: Record<string, number> = {};
  let total = 0;

  for (const [i, name] of names.entries()) {
    it(`mutations of ${name}`, () => {
      const rand = prng(SEED + i);
      const original = pool[i]!;
      const declaredOwn = FIXTURE_FACTS[name]?.media_type ?? "video/mp4";
      for (let c = 0; c < CASES_PER_FIXTURE; c++) {
        const mutated = mutate(original, rand, pool);
        // Mostly the fixture's own type (deep parsing), sometimes any reviewed type (acceptance rules).
        const declared = rand() < 0.8 ? declaredOwn : mediaTypes[Math.floor(rand() * mediaTypes.length)]!;
        const label = `${name} seed=${SEED + i} case=${c} declared=${declared}`;
        const start = performance.now();
        const result = inspector.inspect(mutated, declared);
        const ms = performance.now() - start;
        assertValidResult(result, label);
        if ("message" in result) expect(result.message, label).not.toMatch(/inspector error/);
        if (result.status === "ok") expect(result.facts.byte_length, label).toBe(mutated.length);
        // A bound against runaway parsing (a loop, a quadratic scan), not a speed target (those live in `npm run
        // bench`): a case takes milliseconds, but a 1 s bound failed (1045 ms) on a loaded 2-core CI machine.
        expect(ms, `${label} took ${ms.toFixed(1)} ms`).toBeLessThan(RUNAWAY_MS);
        if (c % 16 === 0) expect(inspector.inspect(mutated, declared), label).toEqual(result);
        counts[result.status] = (counts[result.status] ?? 0) + 1;
        total++;
      }
    });
  }

  it("exercised every outcome", () => {
    expect(total).toBe(names.length * CASES_PER_FIXTURE);
    for (const status of ["ok", "corrupt", "unsupported_media_type", "media_type_mismatch", "codec_unsupported"]) {
      expect(counts[status] ?? 0, `${status} in ${JSON.stringify(counts)}`).toBeGreaterThan(0);
    }
  });
});
