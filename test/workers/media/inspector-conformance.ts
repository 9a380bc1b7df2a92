/**
 * Conformance suite for any `MediaInspector` (src/media/types.ts): what every engine must answer for the
 * committed fixtures (test/fixtures/README.md), the `video/mp4` contract, declared-versus-sniffed rules,
 * aliases, truncation, garbage, and the invariant that `inspect` never throws. Call
 * `runInspectorConformance(name, inspector)` from a test file.
 */
import { describe, expect, it } from "vitest";
import { FORMATS } from "../../../src/catalog/formats";
import type { InspectionResult, MediaInspector, NormalizedInspectionFacts } from "../../../src/media/types";
import { seededBytes } from "../../support/prng";
import { fixture } from "../support/helpers";

type Expected = Partial<NormalizedInspectionFacts> & { media_type: string };

/** Each fixture, declared as its own type, inspects `ok` with these facts (durations compared to 0.05 s). */
export const FIXTURE_FACTS: Record<string, Expected> = {
  "sample.jpg": {
    media_type: "image/jpeg",
    modality: "image",
    width: 64,
    height: 48,
    bit_depth: 8,
    chroma_subsampling: "4:2:0",
    has_c2pa_manifest: false,
  },
  "sample-1mp.jpg": { media_type: "image/jpeg", modality: "image", width: 1280, height: 800, bit_depth: 8, chroma_subsampling: "4:2:0" },
  "sample.png": { media_type: "image/png", modality: "image", width: 64, height: 48, bit_depth: 8, has_c2pa_manifest: false },
  "sample.webp": { media_type: "image/webp", modality: "image", width: 64, height: 48, chroma_subsampling: "4:2:0" },
  "sample.tif": { media_type: "image/tiff", modality: "image", width: 64, height: 48, bit_depth: 8 },
  "sample.dng": { media_type: "image/x-adobe-dng", modality: "image", width: 64, height: 48 },
  "sample.avif": { media_type: "image/avif", modality: "image", width: 64, height: 48, bit_depth: 8, chroma_subsampling: "4:2:0" },
  "sample.heic": { media_type: "image/heic", modality: "image", width: 64, height: 48, bit_depth: 8, chroma_subsampling: "4:2:0" },
  "sample.gif": { media_type: "image/gif", modality: "image", width: 64, height: 48 },
  "sample.svg": { media_type: "image/svg+xml", modality: "image", width: 64, height: 48 },
  "sample.jxl": { media_type: "image/jxl", modality: "image", width: 64, height: 48 },
  "sample-container.jxl": { media_type: "image/jxl", modality: "image", width: 64, height: 48 },
  "sample.mp4": {
    media_type: "video/mp4",
    modality: "video",
    width: 64,
    height: 48,
    duration_seconds: 1,
    frames_per_second: 10,
    video_codec: "h264",
    audio_codec: "aac-lc",
    bit_depth: 8,
    chroma_subsampling: "4:2:0",
    sample_rate: 44100,
    channels: 1,
    has_c2pa_manifest: false,
  },
  "sample-video-only.mp4": {
    media_type: "video/mp4",
    modality: "video",
    width: 64,
    height: 48,
    video_codec: "h264",
    audio_codec: null,
    bit_depth: 8,
  },
  "sample.mov": {
    media_type: "video/quicktime",
    modality: "video",
    width: 64,
    height: 48,
    duration_seconds: 1,
    video_codec: "h264",
    audio_codec: "aac-lc",
  },
  "sample.avi": {
    media_type: "video/x-msvideo",
    modality: "video",
    width: 64,
    height: 48,
    duration_seconds: 1,
    frames_per_second: 5,
    video_codec: "mjpeg",
    audio_codec: "pcm",
    sample_rate: 8000,
    channels: 1,
  },
  "sample.mp3": {
    media_type: "audio/mpeg",
    modality: "audio",
    duration_seconds: 1.045,
    audio_codec: "mp3",
    sample_rate: 44100,
    channels: 1,
    video_codec: null,
    width: null,
  },
  "sample.wav": {
    media_type: "audio/wav",
    modality: "audio",
    duration_seconds: 1,
    audio_codec: "pcm",
    bit_depth: 16,
    sample_rate: 8000,
    channels: 1,
  },
  "sample.flac": {
    media_type: "audio/flac",
    modality: "audio",
    duration_seconds: 1,
    audio_codec: "flac",
    bit_depth: 16,
    sample_rate: 8000,
    channels: 1,
  },
  "sample.m4a": {
    media_type: "audio/mp4",
    modality: "audio",
    duration_seconds: 1,
    audio_codec: "aac-lc",
    sample_rate: 44100,
    channels: 1,
    video_codec: null,
  },
  "sample.pdf": { media_type: "application/pdf", modality: "document" },
  "sample.epub": { media_type: "application/epub+zip", modality: "document" },
  "sample.odt": { media_type: "application/vnd.oasis.opendocument.text", modality: "document" },
  "sample.docx": { media_type: "application/vnd.openxmlformats-officedocument.wordprocessingml.document", modality: "document" },
  "sample.oxps": { media_type: "application/oxps", modality: "document" },
  "sample.zip": { media_type: "application/x-zip-based", modality: "document" },
  "sample.txt": { media_type: "text/plain", modality: "text" },
  "sample.html": { media_type: "text/html", modality: "text" },
  "sample.xml": { media_type: "application/xml", modality: "text" },
  "sample.otf": { media_type: "font/otf", modality: "font" },
  "sample.npy": { media_type: "application/x-npy", modality: "model" },
  "sample.pkl": { media_type: "application/x-pickle", modality: "model" },
  "sample.pt": { media_type: "application/x-pytorch", modality: "model" },
};

/** `video/mp4` fixtures outside the contract, and a pattern their message must match. */
export const CONTRACT_VIOLATIONS: Record<string, RegExp> = {
  "sample-hevc.mp4": /hevc/i,
  "sample-10bit.mp4": /10-bit/i,
  "sample-heaac.mp4": /he-aac/i,
  "sample-fragmented.mp4": /fragment/i,
  "sample-extra-track.mp4": /extra track/i,
  "sample-two-audio.mp4": /audio track/i,
  "sample-hdr.mp4": /hdr/i,
};

/** Formats whose prefixes can be valid files (frames or codestream not walked, or fragment boundaries). */
export const VALID_PREFIX_FIXTURES = new Set(["sample.mp3", "sample.flac", "sample.jxl", "sample-fragmented.mp4"]);
/** Text formats: a prefix of text is text, so truncation is not detectable. */
export const TEXT_FIXTURES = new Set(["sample.txt", "sample.html", "sample.xml", "sample.svg"]);

const FACT_KEYS: Record<keyof NormalizedInspectionFacts, "string" | "number|null" | "string|null" | "boolean" | "number"> = {
  media_type: "string",
  container: "string",
  modality: "string",
  byte_length: "number",
  width: "number|null",
  height: "number|null",
  duration_seconds: "number|null",
  frames_per_second: "number|null",
  video_codec: "string|null",
  audio_codec: "string|null",
  bit_depth: "number|null",
  chroma_subsampling: "string|null",
  sample_rate: "number|null",
  channels: "number|null",
  has_c2pa_manifest: "boolean",
};
const REVIEWED = new Set(FORMATS.map((f) => f.media_type));
const MODALITIES = new Set(["image", "audio", "video", "document", "font", "model", "text"]);

/** Throws (via expect) unless `r` is exactly one well-formed InspectionResult variant. */
export function assertValidResult(r: InspectionResult, label = ""): void {
  expect(r, label).toBeTypeOf("object");
  switch (r.status) {
    case "ok": {
      const f = r.facts;
      expect(Object.keys(f).sort(), label).toEqual(Object.keys(FACT_KEYS).sort());
      for (const [key, kind] of Object.entries(FACT_KEYS)) {
        const v = (f as unknown as Record<string, unknown>)[key];
        const ok =
          kind === "string"
            ? typeof v === "string"
            : kind === "boolean"
              ? typeof v === "boolean"
              : kind === "number"
                ? Number.isFinite(v)
                : kind === "number|null"
                  ? v === null || (typeof v === "number" && Number.isFinite(v) && v >= 0)
                  : v === null || typeof v === "string";
        expect(ok, `${label} facts.${key}=${String(v)}`).toBe(true);
      }
      expect(REVIEWED.has(f.media_type), `${label} media_type ${f.media_type}`).toBe(true);
      expect(MODALITIES.has(f.modality), label).toBe(true);
      break;
    }
    case "media_type_mismatch":
      expect(typeof r.declared, label).toBe("string");
      expect(REVIEWED.has(r.sniffed), `${label} sniffed ${r.sniffed}`).toBe(true);
      expect(typeof r.message, label).toBe("string");
      break;
    case "unsupported_media_type":
    case "codec_unsupported":
    case "corrupt":
      expect(typeof r.message, label).toBe("string");
      expect(r.message.length, label).toBeGreaterThan(0);
      break;
    default:
      throw new Error(`${label}: unknown status ${JSON.stringify(r)}`);
  }
}

function expectFacts(r: InspectionResult, expected: Expected, byteLength: number, label: string): void {
  assertValidResult(r, label);
  if (r.status !== "ok") throw new Error(`${label}: expected ok, got ${JSON.stringify(r)}`);
  expect(r.facts.byte_length, label).toBe(byteLength);
  for (const [key, value] of Object.entries(expected)) {
    const actual = (r.facts as unknown as Record<string, unknown>)[key];
    if ((key === "duration_seconds" || key === "frames_per_second") && typeof value === "number") {
      expect(actual, `${label} ${key}`).toBeTypeOf("number");
      expect(Math.abs((actual as number) - value), `${label} ${key}=${String(actual)}`).toBeLessThan(0.05);
    } else {
      expect(actual, `${label} ${key}`).toEqual(value);
    }
  }
}

/** Deterministic byte noise (the shared seeded PRNG). */
export function noise(length: number, seed: number): Uint8Array {
  return seededBytes(length, seed);
}

export function runInspectorConformance(name: string, inspector: MediaInspector): void {
  const inspect = (bytes: Uint8Array, declared: string) => {
    const r = inspector.inspect(bytes, declared);
    assertValidResult(r, `${declared}`);
    return r;
  };

  describe(`${name}: MediaInspector conformance`, () => {
    describe("each fixture inspects to its media type with its facts", () => {
      for (const [file, expected] of Object.entries(FIXTURE_FACTS)) {
        it(file, () => {
          const bytes = fixture(file);
          expectFacts(inspect(bytes, expected.media_type), expected, bytes.length, file);
        });
      }
    });

    describe("video/mp4 outside the contract is codec_unsupported, naming the reason", () => {
      for (const [file, reason] of Object.entries(CONTRACT_VIOLATIONS)) {
        it(file, () => {
          const r = inspect(fixture(file), "video/mp4");
          expect(r.status, JSON.stringify(r)).toBe("codec_unsupported");
          expect((r as { message: string }).message).toMatch(reason);
        });
        it(`${file} is accepted as video/x-bmff-based (sidecar lane, no codec contract)`, () => {
          expect(inspect(fixture(file), "video/x-bmff-based").status).toBe("ok");
        });
      }
    });

    describe("declared aliases resolve to the reviewed format", () => {
      const cases: [string, string, string][] = [
        ["sample.jpg", "image/jpg", "image/jpeg"],
        ["sample.jpg", "IMAGE/JPEG; charset=binary", "image/jpeg"],
        ["sample.wav", "audio/x-wav", "audio/wav"],
        ["sample.wav", "audio/wave", "audio/wav"],
        ["sample.mp3", "audio/mp3", "audio/mpeg"],
        ["sample.m4a", "audio/x-m4a", "audio/mp4"],
        ["sample.flac", "audio/x-flac", "audio/flac"],
        ["sample.avi", "video/avi", "video/x-msvideo"],
        ["sample.zip", "application/zip", "application/x-zip-based"],
        ["sample.otf", "font/opentype", "font/otf"],
      ];
      for (const [file, declared, canonical] of cases) {
        it(`${file} declared ${declared}`, () => {
          const r = inspect(fixture(file), declared);
          expect(r.status, JSON.stringify(r)).toBe("ok");
          expect((r as { facts: NormalizedInspectionFacts }).facts.media_type).toBe(canonical);
        });
      }
    });

    describe("family and equivalent declarations are accepted when the container matches", () => {
      const cases: [string, string][] = [
        ["sample.webp", "image/x-riff-based"],
        ["sample.wav", "audio/x-riff-based"],
        ["sample.avi", "video/x-riff-based"],
        ["sample.tif", "image/x-tiff-based"],
        ["sample.dng", "image/x-tiff-based"],
        ["sample.mp4", "video/x-bmff-based"],
        ["sample.m4a", "video/x-bmff-based"],
        ["sample.mov", "video/x-bmff-based"],
        ["sample.heic", "video/x-bmff-based"],
        ["sample.heic", "image/heif"],
        ["sample.avif", "video/x-bmff-based"],
        ["sample.docx", "application/x-zip-based"],
        ["sample.epub", "application/x-zip-based"],
        ["sample.pt", "application/x-zip-based"],
        ["sample.mp3", "audio/MPA"],
        ["sample.svg", "application/xml"],
        ["sample.xml", "text/xml"],
        ["sample.html", "text/plain"],
      ];
      for (const [file, declared] of cases) {
        it(`${file} as ${declared}`, () => {
          const r = inspect(fixture(file), declared);
          expect(r.status, JSON.stringify(r)).toBe("ok");
          expect((r as { facts: NormalizedInspectionFacts }).facts.media_type).toBe(declared);
        });
      }
    });

    describe("a reviewed format other than the declared one is media_type_mismatch", () => {
      const cases: [string, string, string][] = [
        ["sample.jpg", "image/png", "image/jpeg"],
        ["sample.png", "image/jpeg", "image/png"],
        ["sample.m4a", "video/mp4", "audio/mp4"],
        ["sample.mp4", "audio/mp4", "video/mp4"],
        ["sample.mov", "video/mp4", "video/quicktime"],
        ["sample.mp4", "video/quicktime", "video/mp4"],
        ["sample.dng", "image/tiff", "image/x-adobe-dng"],
        ["sample.wav", "audio/mpeg", "audio/wav"],
        ["sample.webp", "audio/x-riff-based", "image/webp"],
        ["sample.png", "image/x-riff-based", "image/png"],
        ["sample.heic", "image/avif", "image/heic"],
        ["sample.pdf", "text/plain", "application/pdf"],
        ["sample.txt", "application/pdf", "text/plain"],
        ["sample.png", "image/bmp", "image/png"],
        ["sample.epub", "application/vnd.oasis.opendocument.text", "application/epub+zip"],
      ];
      for (const [file, declared, sniffed] of cases) {
        it(`${file} declared ${declared}`, () => {
          const r = inspect(fixture(file), declared);
          expect(r.status, JSON.stringify(r)).toBe("media_type_mismatch");
          expect((r as { sniffed: string }).sniffed).toBe(sniffed);
        });
      }
    });

    describe("bytes that are no reviewed format are unsupported_media_type", () => {
      const garbage: [string, Uint8Array][] = [
        ["noise", noise(4096, 7)],
        ["zeros", new Uint8Array(1024)],
        ["bmp header", Uint8Array.from([0x42, 0x4d, 0x36, 0, 0, 0, 0, 0, 0, 0, 0x36, 0, 0, 0, 0x28, 0, 0, 0, 0, 0, 0, 0, 0, 0x80])],
        ["invalid utf-8", Uint8Array.from([0x61, 0xc3, 0x28, 0x62])],
        ["text with NUL", Uint8Array.from([0x61, 0x00, 0x62])],
      ];
      for (const [label, bytes] of garbage) {
        for (const declared of ["image/png", "video/mp4", "text/plain"]) {
          it(`${label} declared ${declared}`, () => {
            expect(inspect(bytes, declared).status).toBe("unsupported_media_type");
          });
        }
      }
    });

    describe("magic-less model formats accept their declaration", () => {
      for (const declared of ["application/onnx", "application/x-protobuf", "application/x-openvino-weights"]) {
        it(declared, () => {
          const r = inspect(noise(2048, 3), declared);
          expect(r.status, JSON.stringify(r)).toBe("ok");
          expect((r as { facts: NormalizedInspectionFacts }).facts.modality).toBe("model");
        });
      }
      it("but not for bytes that are another reviewed format", () => {
        expect(inspect(fixture("sample.png"), "application/onnx").status).toBe("media_type_mismatch");
      });
    });

    describe("truncated files are corrupt", () => {
      for (const file of [...Object.keys(FIXTURE_FACTS), ...Object.keys(CONTRACT_VIOLATIONS)]) {
        if (TEXT_FIXTURES.has(file)) continue;
        it(file, () => {
          const bytes = fixture(file);
          const declared = FIXTURE_FACTS[file]?.media_type ?? "video/mp4";
          const cuts = [16, 0.1, 0.25, 0.5, 0.75, 0.9].map((f) => (f < 1 ? Math.floor(bytes.length * f) : f));
          cuts.push(bytes.length - 8);
          for (const cut of new Set(cuts.filter((c) => c >= 16 && c < bytes.length))) {
            const r = inspect(bytes.subarray(0, cut), declared);
            if (VALID_PREFIX_FIXTURES.has(file)) expect(["corrupt", "ok", "codec_unsupported"], `${file}@${cut}`).toContain(r.status);
            else expect(r.status, `${file} cut at ${cut}: ${JSON.stringify(r)}`).toBe("corrupt");
          }
        });
      }
    });

    describe("inspect never throws", () => {
      const inputs: [string, Uint8Array][] = [
        ["empty", new Uint8Array(0)],
        ["one byte", Uint8Array.of(0xff)],
        ["JPEG SOI only", Uint8Array.of(0xff, 0xd8, 0xff)],
        ["PNG signature only", Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)],
        ["RIFF header only", Uint8Array.from("RIFF\xff\xff\xff\x7fWAVE", (c) => c.charCodeAt(0))],
        ["box claiming 4 GiB", Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0x66, 0x74, 0x79, 0x70, 0x69, 0x73, 0x6f, 0x6d)],
        ["64-bit box size", Uint8Array.of(0, 0, 0, 1, 0x66, 0x74, 0x79, 0x70, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff)],
      ];
      for (const [label, bytes] of inputs) {
        for (const declared of ["", "video/mp4", "*/*", "x".repeat(10_000), "image/jpeg;;;", "\u0000"]) {
          it(`${label} declared ${JSON.stringify(declared.slice(0, 12))}`, () => {
            expect(() => inspect(bytes, declared)).not.toThrow();
          });
        }
      }
      it("empty input is corrupt", () => {
        expect(inspect(new Uint8Array(0), "image/png").status).toBe("corrupt");
      });
    });
  });
}
