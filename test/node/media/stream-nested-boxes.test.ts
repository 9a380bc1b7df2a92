/**
 * The streaming scanner's walk of nested BMFF boxes (src/media/c2pa/bmff.ts NestedBoxWalk): it refuses what the
 * reference reader (c2pa-rs build_bmff_tree) refuses inside the containers it opens, accepts what it accepts (a
 * QuickTime udta's 4-byte zero terminator, a meta box in ISO full-box or QuickTime form), and gives the same answer
 * whatever the chunking of the stream.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { BmffScanner, C2PA_BOX_UUID, MAXIMUM_BOX_DEPTH } from "../../../src/media/c2pa/bmff";
import { StreamMediaError } from "../../../src/media/c2pa/stream-hash";
import { installDigestStream } from "./stream-support";

beforeAll(() => installDigestStream());

const enc = new TextEncoder();

function box(type: string, ...children: Uint8Array[]): Uint8Array {
  const length = 8 + children.reduce((n, c) => n + c.length, 0);
  const out = new Uint8Array(length);
  new DataView(out.buffer).setUint32(0, length);
  out.set(enc.encode(type), 4);
  let at = 8;
  for (const c of children) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

const raw = (...bytes: number[]) => Uint8Array.from(bytes);
const hdlr = () => box("hdlr", new Uint8Array(24));

/** ftyp, then `moovChildren` inside a moov, then a small mdat. */
function file(...moovChildren: Uint8Array[]): Uint8Array {
  return concat(
    box("ftyp", enc.encode("isom"), new Uint8Array(4)),
    box("moov", box("mvhd", new Uint8Array(100)), ...moovChildren),
    box("mdat", new Uint8Array(64)),
  );
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** The scan's outcome fed in chunks of `step` bytes: the hash (hex) or the refusal's kind. */
async function scan(bytes: Uint8Array, step = bytes.length): Promise<string> {
  const scanner = new BmffScanner(bytes.length, { verify: true });
  try {
    for (let at = 0; at < bytes.length; at += step) await scanner.push(bytes.subarray(at, at + step));
    return Buffer.from(await scanner.finish()).toString("hex");
  } catch (error) {
    if (error instanceof StreamMediaError) return error.kind;
    throw error;
  }
}

async function sameAtEveryChunking(bytes: Uint8Array): Promise<string> {
  const whole = await scan(bytes);
  for (const step of [1, 3, 7, 16]) expect(await scan(bytes, step)).toBe(whole);
  return whole;
}

describe("nested boxes", () => {
  it("a QuickTime udta ending in a 4-byte zero terminator is accepted", async () => {
    const udta = box("udta", box("\u00a9nam", new Uint8Array(12)), raw(0, 0, 0, 0));
    expect(await sameAtEveryChunking(file(udta))).toMatch(/^[0-9a-f]{64}$/);
  });

  it("a meta box in ISO full-box form and in QuickTime form is accepted", async () => {
    const iso = box("meta", raw(0, 0, 0, 0), hdlr(), box("ilst", new Uint8Array(10)));
    const quicktime = box("meta", hdlr(), box("keys", new Uint8Array(8)));
    expect(await sameAtEveryChunking(file(box("udta", iso)))).toMatch(/^[0-9a-f]{64}$/);
    expect(await sameAtEveryChunking(file(quicktime))).toMatch(/^[0-9a-f]{64}$/);
  });

  it("a child box running past its container is refused as malformed, at any depth", async () => {
    const bad = box("trak", box("mdia", box("minf", box("stbl", box("stsd", new Uint8Array(16))))));
    // The stsd claims 4 bytes more than its stbl holds.
    const at = Buffer.from(bad).indexOf(Buffer.from("stsd")) - 4;
    new DataView(bad.buffer).setUint32(at, new DataView(bad.buffer).getUint32(at) + 4);
    expect(await sameAtEveryChunking(file(bad))).toBe("malformed");
  });

  it("a top-level udta or mfra whose body is not boxes is refused", async () => {
    const garbage = (type: string) => {
      const b = box(type, new Uint8Array(1000).fill(0x41));
      return b;
    };
    expect(await sameAtEveryChunking(concat(file(), garbage("udta")))).toBe("malformed");
    expect(await sameAtEveryChunking(concat(file(), garbage("mfra")))).toBe("malformed");
  });

  it("nesting deeper than the bound is refused as unsupported, not walked", async () => {
    let inner = box("free", new Uint8Array(4));
    for (let i = 0; i < MAXIMUM_BOX_DEPTH + 2; i++) inner = box("udta", inner);
    expect(await sameAtEveryChunking(file(inner))).toBe("unsupported");
  });

  it("a size-0 child header is read past, as the reference does; a container's boxes may be 64-bit sized", async () => {
    const large = concat(raw(0, 0, 0, 1), enc.encode("free"), raw(0, 0, 0, 0, 0, 0, 0, 20), new Uint8Array(4));
    expect(await sameAtEveryChunking(file(box("udta", raw(0, 0, 0, 0), enc.encode("free"), large)))).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("a C2PA uuid box in 64-bit size form", () => {
  const c2pa64 = () => {
    const body = concat(C2PA_BOX_UUID, raw(0, 0, 0, 0), enc.encode("manifest\u0000"), new Uint8Array(8), new Uint8Array(40));
    const out = concat(raw(0, 0, 0, 1), enc.encode("uuid"), new Uint8Array(8), body);
    new DataView(out.buffer).setUint32(12, out.length);
    return out;
  };

  it("is no manifest to verification (hashed like any other box, as the reference reads no manifest in it)", async () => {
    const bytes = concat(file(), c2pa64());
    const scanner = new BmffScanner(bytes.length, { verify: true });
    await scanner.push(bytes);
    await scanner.finish();
    expect(scanner.store).toBeNull();
  });

  it("is refused by the signer like the 32-bit form (the file already claims provenance)", async () => {
    const bytes = concat(file(), c2pa64());
    const scanner = new BmffScanner(bytes.length, { verify: false });
    await expect(scanner.push(bytes)).rejects.toThrow(/already carries/);
  });
});
