/**
 * Second hostile review of the fast validator (src/media/c2pa/fast-validator.ts, #19): the rendered verification
 * (claims, assertion_labels, creator/capture, signer), not only the verdict. Files are signed by the service's own
 * signer under a dev PKI (or crafted, for the cost checks). Tests named Fn fail on the reviewed code (F1: cost on a
 * hostile store the fast path defers); the others record inputs checked and found judged alike.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { type DevPki, mintDevPki } from "../../../src/dev/pki";
import { devTsa } from "../../../src/dev/tsa";
import { initC2paEngine } from "../../../src/media/c2pa/engine";
import { fastVerifyJpeg } from "../../../src/media/c2pa/fast-validator";
import { type JumbfSuperbox, parseJumbf } from "../../../src/media/c2pa/jumbf-box";
import { extractManifestStore, jpegManifestStoreInstances } from "../../../src/media/c2pa/jumbf-carriers";
import { C2paSigner } from "../../../src/media/c2pa/signer";
import { anchorsForStore } from "../../../src/media/c2pa/trust-anchors";
import { pemBlocks } from "../../../src/media/c2pa/tsa-der";
import { installDevTsa } from "../../../src/media/c2pa/tsa-dev-port";
import { verifyManifest } from "../../../src/media/c2pa/verifier";
import type { ManifestPlan } from "../../../src/media/types";

const require = createRequire(import.meta.url);
const FIXTURES = join(import.meta.dirname, "..", "..", "fixtures");
const image = (name: string) => new Uint8Array(readFileSync(join(FIXTURES, name)));

const capture = {
  capture_admission_id: "cad_abcdefghijklmnop",
  provider_class: "apple_app_attest",
  verifier_version: "capture-1",
  decided_at: "2026-01-01T00:00:00Z",
  media_sha256: "b".repeat(64),
};
const creator = { creator_ref: "cr_0123456789", commitment: "a".repeat(64) };
const BOTH: ManifestPlan = { title: "both.jpg", media_type: "image/jpeg", intent: { kind: "opened" }, assertions: [], creator, capture };

let pki: DevPki;
let signer: C2paSigner;

beforeAll(async () => {
  const { compile } = WebAssembly as unknown as { compile(bytes: Uint8Array): Promise<WebAssembly.Module> };
  initC2paEngine(await compile(readFileSync(require.resolve("@contentauth/c2pa-wasm/c2pa.wasm"))));
  installDevTsa(devTsa);
  pki = await mintDevPki();
  signer = new C2paSigner({
    certChainPem: pki.signerChainPem,
    privateKey: pki.signerKeyPkcs8Pem,
    tsa: { kind: "internal", chainPem: pki.tsaChainPem, keyPkcs8Pem: pki.tsaKeyPkcs8Pem },
  });
}, 60_000);

async function sign(bytes: Uint8Array, plan: ManifestPlan): Promise<Uint8Array> {
  const result = await signer.signEmbedded({ bytes, plan });
  if (result.status !== "signed") throw new Error(JSON.stringify(result));
  return result.bytes;
}

async function both(bytes: Uint8Array, anchors: string) {
  const fast = await verifyManifest({ bytes, mediaType: "image/jpeg" }, anchors, () => undefined);
  const engine = await verifyManifest({ bytes, mediaType: "image/jpeg" }, anchors, () => undefined, { fastValidator: false });
  const own = await fastVerifyJpeg(bytes, anchorsForStore(anchors, extractManifestStore(bytes, "image/jpeg"))!);
  return { fast, engine, own };
}

/** The store (one APP11 packet) of a signed file, its offset in the file and its assertion store superbox. */
function storeOf(bytes: Uint8Array) {
  const located = extractManifestStore(bytes, "image/jpeg");
  if (located.status !== "ok") throw new Error("no store");
  const store = located.store;
  const at = Buffer.from(bytes).indexOf(Buffer.from(store));
  if (at < 0) throw new Error("store split across packets");
  const parsed = parseJumbf(store);
  if (parsed.status !== "ok") throw new Error("jumbf");
  const manifest = parsed.root.children[0] as JumbfSuperbox;
  const assertionStore = manifest.children.find(
    (c): c is JumbfSuperbox => c.kind === "superbox" && c.description.label === "c2pa.assertions",
  )!;
  return { store, at, assertionStore };
}

/** The file with the assertion store's boxes in the order `order` gives their labels (same bytes, same length). */
function reorderAssertions(bytes: Uint8Array, order: (labels: string[]) => string[]): Uint8Array {
  const { store, at, assertionStore } = storeOf(bytes);
  const boxes = assertionStore.children.filter((c): c is JumbfSuperbox => c.kind === "superbox");
  const first = boxes[0]!.offset;
  const last = boxes[boxes.length - 1]!;
  const end = last.offset + last.length;
  const byLabel = new Map(boxes.map((b) => [b.description.label!, store.subarray(b.offset, b.offset + b.length)]));
  const labels = order(boxes.map((b) => b.description.label!));
  const out = bytes.slice();
  let o = at + first;
  for (const l of labels) {
    out.set(byLabel.get(l)!, o);
    o += byLabel.get(l)!.length;
  }
  expect(o).toBe(at + end);
  return out;
}

describe("fast validator review 2: rendered result", () => {
  it("control: the plan with creator and capture renders alike", async () => {
    const signed = await sign(image("media/sample.jpg"), BOTH);
    const { fast, engine, own } = await both(signed, pki.rootCertPem);
    expect(own.status).toBe("verified");
    expect(fast).toStrictEqual(engine);
  }, 60_000);

  it("check: assertion boxes stored in another order than the claim references them render alike", async () => {
    const signed = await sign(image("media/sample.jpg"), BOTH);
    const reordered = reorderAssertions(signed, (l) => [...l].reverse());
    const { fast, engine, own } = await both(reordered, pki.rootCertPem);
    expect(own.status).toBe("verified");
    expect(fast).toStrictEqual(engine);
  }, 60_000);
});

function derLength(n: number): number[] {
  if (n < 128) return [n];
  const b: number[] = [];
  for (let v = n; v; v = Math.floor(v / 256)) b.unshift(v & 255);
  return [0x80 | b.length, ...b];
}

/** `depth` nested SEQUENCEs around one OCTET STRING of `size` bytes (valid DER). */
function nested(depth: number, size: number): Uint8Array {
  let cur = new Uint8Array([0x04, ...derLength(size), ...new Uint8Array(size)]);
  for (let i = 0; i < depth; i++) {
    const h = [0x30, ...derLength(cur.length)];
    const o = new Uint8Array(h.length + cur.length);
    o.set(h);
    o.set(cur, h.length);
    cur = o;
  }
  return cur;
}

describe("fast validator review 2: cost on hostile input", () => {
  it("check: a signer certificate whose subject holds a deeply nested 3 MB attribute value costs the fast path less than the engine", async () => {
    const [leafDer, caDer] = pemBlocks(pki.signerChainPem, "CERTIFICATE") as [Uint8Array, Uint8Array];
    const cert = pkijs.Certificate.fromBER(leafDer);
    const value = asn1js.fromBER(nested(95, 3 << 20).slice().buffer).result as unknown as asn1js.Utf8String;
    cert.subject = new pkijs.RelativeDistinguishedNames({
      typesAndValues: [...cert.subject.typesAndValues, new pkijs.AttributeTypeAndValue({ type: "2.5.4.11", value })],
    });
    // Signed by a throwaway key: the file need not verify, only reach the fast path's certificate parsing.
    const keys = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
    await cert.sign(keys.privateKey, "SHA-256");
    const big = new Uint8Array(cert.toSchema(true).toBER(false));
    const pem = (der: Uint8Array) =>
      `-----BEGIN CERTIFICATE-----\n${Buffer.from(der)
        .toString("base64")
        .match(/.{1,64}/g)!
        .join("\n")}\n-----END CERTIFICATE-----\n`;
    const hostile = new C2paSigner({ certChainPem: pem(big) + pem(caDer), privateKey: pki.signerKeyPkcs8Pem, tsa: null });
    const result = await hostile.signEmbedded({ bytes: image("media/sample.jpg"), plan: BOTH });
    if (result.status !== "signed") throw new Error(JSON.stringify(result).slice(0, 300));
    const file = result.bytes;
    const anchors = anchorsForStore(pki.rootCertPem, extractManifestStore(file, "image/jpeg"))!;
    const time = async (f: () => Promise<unknown>) => {
      const t = performance.now();
      await f();
      return performance.now() - t;
    };
    const engineMs: number[] = [];
    const fastMs: number[] = [];
    // The first reading of each (the certificate cache of the fast path would hide the parse on later ones).
    engineMs.push(
      await time(() =>
        verifyManifest({ bytes: file, mediaType: "image/jpeg" }, pki.rootCertPem, () => undefined, { fastValidator: false }),
      ),
    );
    fastMs.push(await time(() => fastVerifyJpeg(file, anchors)));
    const own = await fastVerifyJpeg(file, anchors);
    console.log(
      "nested subject: file",
      file.length,
      "fast ms",
      fastMs.map(Math.round),
      "engine ms",
      engineMs.map(Math.round),
      own.status,
      "reason" in own ? own.reason : "",
    );
    expect(own.status).toBe("defer");
    // asn1js stops nesting near 100 levels, so the re-encoding copies the value at most ~100 times: bounded, and
    // on this machine below the engine's own reading of the same file. Loose bound: timings are noisy here.
    expect(fastMs[0]!).toBeLessThan(3 * engineMs[0]!);
  }, 300_000);
});

describe("fast validator review 2: customer-controlled strings", () => {
  const odd: [string, string][] = [
    ["NUL", "a\u0000b"],
    ["line separators", "a\u2028b\u2029c\r\n"],
    ["combining (NFD)", "e\u0301te\u0301"],
    ["astral + ZWJ", "\u{1F469}\u200D\u{1F4BB}"],
    ["BOM first", "\uFEFFref"],
    ["JSON-looking", '{"creator_ref":"x"}'],
    ["backslashes", "\\u0041\\"],
    ["empty", ""],
    ["long (100k)", "\u00e9".repeat(100_000)],
  ];
  for (const [name, text] of odd) {
    it(`check: ${name} in creator, capture and title renders alike`, async () => {
      const plan: ManifestPlan = {
        title: text || "t",
        media_type: "image/jpeg",
        intent: { kind: "opened" },
        assertions: [],
        creator: { creator_ref: text, commitment: "a".repeat(64) },
        capture: { ...capture, verifier_version: text },
      };
      const signed = await sign(image("media/sample.jpg"), plan);
      const { fast, engine, own } = await both(signed, pki.rootCertPem);
      expect(fast).toStrictEqual(engine);
      if (own.status !== "verified") console.log(name, own.reason);
    }, 60_000);
  }
});

describe("fast validator review 2: validity edges (the clock both paths read)", () => {
  it("check: an untimestamped store judged at the leaf's notBefore, notAfter and just after", async () => {
    const leaf = pkijs.Certificate.fromBER(pemBlocks(pki.signerChainPem, "CERTIFICATE")[0]!);
    const untimed = new C2paSigner({ certChainPem: pki.signerChainPem, privateKey: pki.signerKeyPkcs8Pem, tsa: null });
    const result = await untimed.signEmbedded({ bytes: image("media/sample.jpg"), plan: BOTH });
    if (result.status !== "signed") throw new Error("sign");
    const nb = leaf.notBefore.value.getTime();
    const na = leaf.notAfter.value.getTime();
    const out: string[] = [];
    try {
      for (const [name, t] of [
        ["notBefore", nb],
        ["notBefore-1ms", nb - 1],
        ["notAfter", na],
        ["notAfter+1ms", na + 1],
        ["notAfter+999ms", na + 999],
        ["notAfter+1s", na + 1000],
      ] as [string, number][]) {
        vi.useFakeTimers({ toFake: ["Date"], now: t });
        const { fast, engine, own } = await both(result.bytes, pki.rootCertPem);
        vi.useRealTimers();
        const st = (v: typeof fast) => (v.facts.state === "read" ? `${v.facts.validation_state} ${v.facts.failure_codes}` : v.facts.state);
        out.push(`${name}: own ${own.status} fast ${st(fast)} engine ${st(engine)}`);
        expect(fast, name).toStrictEqual(engine);
      }
    } finally {
      vi.useRealTimers();
      console.log(out.join("\n"));
    }
  }, 120_000);
});

describe("fast validator review 2: certificate time encodings", () => {
  async function chainWith(leafNotAfter: { type: "utc" | "generalized"; date: Date }) {
    const gen = async () =>
      (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
    const [root, mid, leaf] = await Promise.all([gen(), gen(), gen()]);
    const spki = async (k: CryptoKeyPair) => new Uint8Array((await crypto.subtle.exportKey("spki", k.publicKey)) as ArrayBuffer);
    const keyId = async (k: CryptoKeyPair) =>
      new Uint8Array(
        await crypto.subtle.digest("SHA-1", pkijs.PublicKeyInfo.fromBER(await spki(k)).subjectPublicKey.valueBlock.valueHexView),
      );
    const name = (cn: string) =>
      new pkijs.RelativeDistinguishedNames({
        typesAndValues: [
          new pkijs.AttributeTypeAndValue({ type: "2.5.4.10", value: new asn1js.Utf8String({ value: "svc review2" }) }),
          new pkijs.AttributeTypeAndValue({ type: "2.5.4.3", value: new asn1js.Utf8String({ value: cn }) }),
        ],
      });
    const ext = (extnID: string, critical: boolean, v: asn1js.BaseBlock) =>
      new pkijs.Extension({ extnID, critical, extnValue: v.toBER(false) });
    const ku = (byte: number, unused: number) =>
      ext("2.5.29.15", true, new asn1js.BitString({ valueHex: new Uint8Array([byte]), unusedBits: unused }));
    const ski = (id: Uint8Array) => ext("2.5.29.14", false, new asn1js.OctetString({ valueHex: id }));
    const aki = (id: Uint8Array) =>
      ext(
        "2.5.29.35",
        false,
        new asn1js.Sequence({ value: [new asn1js.Primitive({ idBlock: { tagClass: 3, tagNumber: 0 }, valueHex: id })] }),
      );
    const bc = () => ext("2.5.29.19", true, new asn1js.Sequence({ value: [new asn1js.Boolean({ value: true })] }));
    const now = Math.floor(Date.now() / 1000) * 1000;
    const issue = async (
      subject: CryptoKeyPair,
      sn: string,
      issuer: CryptoKeyPair,
      isn: string,
      exts: pkijs.Extension[],
      notAfter: pkijs.Time,
      notBefore = now - 3_600_000,
    ) => {
      const c = new pkijs.Certificate();
      c.version = 2;
      c.serialNumber = new asn1js.Integer({ valueHex: Uint8Array.of(0x40, ...crypto.getRandomValues(new Uint8Array(15))) });
      c.issuer = name(isn);
      c.subject = name(sn);
      c.notBefore = new pkijs.Time({ type: pkijs.TimeType.UTCTime, value: new Date(notBefore) });
      c.notAfter = notAfter;
      c.subjectPublicKeyInfo = pkijs.PublicKeyInfo.fromBER(await spki(subject));
      c.extensions = exts;
      await c.sign(issuer.privateKey, "SHA-256");
      return new Uint8Array(c.toSchema(true).toBER(false));
    };
    const utc = (ms: number) => new pkijs.Time({ type: pkijs.TimeType.UTCTime, value: new Date(ms) });
    const rootDer = await issue(root, "root", root, "root", [bc(), ku(0x06, 1), ski(await keyId(root))], utc(now + 3650 * 86_400_000));
    const midDer = await issue(
      mid,
      "mid",
      root,
      "root",
      [bc(), ku(0x06, 1), ski(await keyId(mid)), aki(await keyId(root))],
      utc(now + 1825 * 86_400_000),
    );
    const leafTime =
      leafNotAfter.type === "utc"
        ? new pkijs.Time({ type: pkijs.TimeType.UTCTime, value: leafNotAfter.date })
        : new pkijs.Time({ type: pkijs.TimeType.GeneralizedTime, value: leafNotAfter.date });
    const eku = ext(
      "2.5.29.37",
      false,
      new asn1js.Sequence({ value: ["1.3.6.1.5.5.7.3.4", "1.3.6.1.5.5.7.3.36"].map((value) => new asn1js.ObjectIdentifier({ value })) }),
    );
    const leafDer = await issue(leaf, "leaf", mid, "mid", [ku(0x80, 7), eku, ski(await keyId(leaf)), aki(await keyId(mid))], leafTime);
    const pem = (label: string, der: Uint8Array) =>
      `-----BEGIN ${label}-----\n${Buffer.from(der)
        .toString("base64")
        .match(/.{1,64}/g)!
        .join("\n")}\n-----END ${label}-----\n`;
    const key = pem("PRIVATE KEY", new Uint8Array((await crypto.subtle.exportKey("pkcs8", leaf.privateKey)) as ArrayBuffer));
    // The root re-issued with the same name and key, expired: a twin anchor a bundle may also carry.
    const twinDer = await issue(
      root,
      "root",
      root,
      "root",
      [bc(), ku(0x06, 1), ski(await keyId(root))],
      utc(now - 86_400_000),
      now - 10 * 86_400_000,
    );
    return {
      rootPem: pem("CERTIFICATE", rootDer),
      twinPem: pem("CERTIFICATE", twinDer),
      chainPem: pem("CERTIFICATE", leafDer) + pem("CERTIFICATE", midDer),
      key,
      leafDer,
    };
  }

  const later = Date.now() + 30 * 86_400_000;
  const cases: [string, { type: "utc" | "generalized"; date: Date }][] = [
    ["GeneralizedTime notAfter with fractional seconds", { type: "generalized", date: new Date(Math.floor(later / 1000) * 1000 + 500) }],
    [
      "GeneralizedTime notAfter before 2050 (RFC 5280 wants UTCTime)",
      { type: "generalized", date: new Date(Math.floor(later / 1000) * 1000) },
    ],
    ["GeneralizedTime notAfter 2050-01-01", { type: "generalized", date: new Date(Date.UTC(2050, 0, 1)) }],
    ["UTCTime notAfter 2049-12-31T23:59:59", { type: "utc", date: new Date(Date.UTC(2049, 11, 31, 23, 59, 59)) }],
    ["GeneralizedTime notAfter 9999-12-31T23:59:59", { type: "generalized", date: new Date(Date.UTC(9999, 11, 31, 23, 59, 59)) }],
  ];
  for (const [label, notAfter] of cases) {
    it(`check: ${label}`, async () => {
      const c = await chainWith(notAfter);
      const s = new C2paSigner({ certChainPem: c.chainPem, privateKey: c.key, tsa: null });
      const result = await s.signEmbedded({ bytes: image("media/sample.jpg"), plan: BOTH });
      if (result.status !== "signed") throw new Error(JSON.stringify(result).slice(0, 300));
      const { fast, engine, own } = await both(result.bytes, c.rootPem);
      const st = (v: typeof fast) => (v.facts.state === "read" ? `${v.facts.validation_state} ${v.facts.failure_codes}` : v.facts.state);
      console.log(
        label,
        "own",
        own.status,
        "reason" in own ? own.reason : "",
        "| fast",
        st(fast),
        "| engine",
        st(engine),
        "| not_after",
        fast.signer?.not_after,
        engine.signer?.not_after,
      );
      expect(fast).toStrictEqual(engine);
    }, 60_000);
  }

  for (const order of ["expired twin first", "expired twin last", "expired twin alone"]) {
    it(`check: the root and its expired twin (same name and key) in the bundle, ${order}`, async () => {
      const c = await chainWith({ type: "utc", date: new Date(later) });
      const s = new C2paSigner({ certChainPem: c.chainPem, privateKey: c.key, tsa: null });
      const result = await s.signEmbedded({ bytes: image("media/sample.jpg"), plan: BOTH });
      if (result.status !== "signed") throw new Error(JSON.stringify(result).slice(0, 300));
      const bundle =
        order === "expired twin first" ? c.twinPem + c.rootPem : order === "expired twin last" ? c.rootPem + c.twinPem : c.twinPem;
      const { fast, engine, own } = await both(result.bytes, bundle);
      const st = (v: typeof fast) => (v.facts.state === "read" ? `${v.facts.validation_state} ${v.facts.failure_codes}` : v.facts.state);
      console.log(order, "own", own.status, "reason" in own ? own.reason : "", "| fast", st(fast), "| engine", st(engine));
      expect(fast).toStrictEqual(engine);
    }, 60_000);
  }
});

describe("fast validator review 2: caches under interleaving", () => {
  it("check: verifications interleaved across awaits, with different anchors over the same files, each judged as alone", async () => {
    const other = await mintDevPki();
    const otherSigner = new C2paSigner({
      certChainPem: other.signerChainPem,
      privateKey: other.signerKeyPkcs8Pem,
      tsa: { kind: "internal", chainPem: other.tsaChainPem, keyPkcs8Pem: other.tsaKeyPkcs8Pem },
    });
    const fileA = await sign(image("media/sample.jpg"), BOTH);
    const resultB = await otherSigner.signEmbedded({ bytes: image("media/sample.jpg"), plan: BOTH });
    if (resultB.status !== "signed") throw new Error("sign");
    const fileB = resultB.bytes;
    // The same certificates in two texts (another line width): two cache keys for one parsed set.
    const rewrap = (p: string) =>
      p
        .replace(/\n(?!-----)/g, "")
        .replace(/-----BEGIN CERTIFICATE-----/g, "-----BEGIN CERTIFICATE-----\n")
        .replace(/-----END/g, "\n-----END");
    const bundles = [pki.rootCertPem, other.rootCertPem, pki.rootCertPem + other.rootCertPem, rewrap(other.rootCertPem + pki.rootCertPem)];
    const jobs = [fileA, fileB].flatMap((file) => bundles.map((anchors) => ({ file, anchors })));
    const alone: Awaited<ReturnType<typeof verifyManifest>>[] = [];
    for (const j of jobs)
      alone.push(await verifyManifest({ bytes: j.file, mediaType: "image/jpeg" }, j.anchors, () => undefined, { fastValidator: false }));
    for (let round = 0; round < 3; round++) {
      const together = await Promise.all(
        [...jobs, ...jobs].map((j) => verifyManifest({ bytes: j.file, mediaType: "image/jpeg" }, j.anchors, () => undefined)),
      );
      together.forEach((v, i) => expect(v, `job ${i % jobs.length}`).toStrictEqual(alone[i % jobs.length]));
    }
    const own = await Promise.all(
      jobs.map((j) => fastVerifyJpeg(j.file, anchorsForStore(j.anchors, extractManifestStore(j.file, "image/jpeg"))!)),
    );
    expect(own.map((o) => o.status)).toStrictEqual([
      "verified",
      "defer",
      "verified",
      "verified",
      "defer",
      "verified",
      "verified",
      "verified",
    ]);
  }, 120_000);
});

describe("fast validator review 2: segments after the first scan", () => {
  /** An APP1 XMP segment naming a remote manifest (dcterms:provenance). */
  function xmpSegment(): Uint8Array {
    const xmp = new TextEncoder().encode(
      'http://ns.adobe.com/xap/1.0/\u0000<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
        '<rdf:Description rdf:about="" xmlns:dcterms="http://purl.org/dc/terms/" dcterms:provenance="https://example.com/remote.c2pa"/>' +
        "</rdf:RDF></x:xmpmeta>",
    );
    return new Uint8Array([0xff, 0xe1, (xmp.length + 2) >> 8, (xmp.length + 2) & 255, ...xmp]);
  }
  const place = (bytes: Uint8Array, at: number, seg: Uint8Array) =>
    new Uint8Array([...bytes.subarray(0, at), ...seg, ...bytes.subarray(at)]);

  for (const where of ["before EOI", "after EOI"]) {
    it(`check: an XMP remote reference ${where} (outside the marker walk the fast path does) is judged alike`, async () => {
      const src = image("media/sample.jpg");
      const eoi = src.length - 2;
      expect([src[eoi], src[eoi + 1]]).toStrictEqual([0xff, 0xd9]);
      const withXmp = place(src, where === "before EOI" ? eoi : src.length, xmpSegment());
      const signed = await sign(withXmp, BOTH);
      const { fast, engine, own } = await both(signed, pki.rootCertPem);
      const st = (v: typeof fast) =>
        v.facts.state === "read" ? `${v.facts.validation_state} ${v.facts.failure_codes} ${v.facts.informational_codes}` : v.facts.state;
      console.log(where, "own", own.status, "reason" in own ? own.reason : "", "| fast", st(fast), "| engine", st(engine));
      expect(fast).toStrictEqual(engine);
    }, 60_000);
  }
});

describe("fast validator review 2: the timestamp at the leaf's notBefore", () => {
  for (const offset of [0, -1000, 999]) {
    it(`check: genTime = leaf notBefore ${offset >= 0 ? "+" : ""}${offset} ms is judged alike`, async () => {
      const leaf = pkijs.Certificate.fromBER(pemBlocks(pki.signerChainPem, "CERTIFICATE")[0]!);
      const nb = leaf.notBefore.value.getTime();
      let signed: Uint8Array;
      try {
        // The dev TSA stamps the clock's time: the token's genTime is the leaf's notBefore (+ offset, whole seconds).
        vi.useFakeTimers({ toFake: ["Date"], now: nb + offset });
        signed = await sign(image("media/sample.jpg"), BOTH);
      } finally {
        vi.useRealTimers();
      }
      const { fast, engine, own } = await both(signed, pki.rootCertPem);
      const st = (v: typeof fast) => (v.facts.state === "read" ? `${v.facts.validation_state} ${v.facts.failure_codes}` : v.facts.state);
      console.log(
        offset,
        "own",
        own.status,
        "reason" in own ? own.reason : "",
        "| fast",
        st(fast),
        "| engine",
        st(engine),
        fast.claims?.created_at,
      );
      expect(fast).toStrictEqual(engine);
    }, 60_000);
  }
});

describe("fast validator review 2: a deep, large unsigned store", () => {
  it("F1: a 16-deep JUMBF store around 10 MB of content (unsigned) costs the fast path more than the engine", async () => {
    const te = new TextEncoder();
    const box = (type: string, payload: Uint8Array) => {
      const out = new Uint8Array(8 + payload.length);
      new DataView(out.buffer).setUint32(0, out.length);
      out.set(te.encode(type), 4);
      out.set(payload, 8);
      return out;
    };
    const jumd = (type: string, label: string) => {
      const uuid = new Uint8Array([...te.encode(type), 0x00, 0x11, 0x00, 0x10, 0x80, 0x00, 0x00, 0xaa, 0x00, 0x38, 0x9b, 0x71]);
      return box("jumd", new Uint8Array([...uuid, 3, ...te.encode(label), 0]));
    };
    const superbox = (type: string, label: string, children: Uint8Array[]) => {
      const d = jumd(type, label);
      const body = new Uint8Array(d.length + children.reduce((n, c) => n + c.length, 0));
      body.set(d);
      let o = d.length;
      for (const c of children) {
        body.set(c, o);
        o += c.length;
      }
      return box("jumb", body);
    };
    // 10 MiB: under the engine's read limit (ENGINE_READ_MAXIMUM_BYTES, 12 MiB), so the engine reads it.
    let inner = box("cbor", new Uint8Array(10 << 20));
    for (let i = 0; i < 14; i++) inner = superbox("cbor", `l${i}`, [inner]);
    const store = superbox("c2pa", "c2pa", [superbox("c2ma", "urn:c2pa:00000000-0000-0000-0000-000000000000", [inner])]);
    // APP11 packets: "JP", En 1, Z 1…; later packets repeat the store's box header.
    const packets: Uint8Array[] = [];
    const max = 65_535 - 2 - 8 - 8;
    for (let at = 0, z = 1; at < store.length; z++) {
      const first = at === 0;
      const take = Math.min(max, store.length - at);
      const head = first ? [] : [...store.subarray(0, 8)];
      const length = 2 + 8 + head.length + take;
      const seg = new Uint8Array(2 + length);
      seg.set([0xff, 0xeb, length >> 8, length & 255, 0x4a, 0x50, 0x00, 0x01, z >>> 24, (z >>> 16) & 255, (z >>> 8) & 255, z & 255]);
      seg.set(head, 12);
      seg.set(store.subarray(at, at + take), 12 + head.length);
      packets.push(seg);
      at += take;
    }
    const src = image("media/sample.jpg");
    const parts = [src.subarray(0, 2), ...packets, src.subarray(2)];
    const file = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let o = 0;
    for (const p of parts) {
      file.set(p, o);
      o += p.length;
    }
    // Interleaved, medians of three: the fast path runs before the engine, so its cost on a store it defers is added.
    const fastMs: number[] = [];
    const engineMs: number[] = [];
    let own: Awaited<ReturnType<typeof fastVerifyJpeg>> | null = null;
    let engine: Awaited<ReturnType<typeof verifyManifest>> | null = null;
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      own = await fastVerifyJpeg(file, pki.rootCertPem);
      const t1 = performance.now();
      engine = await verifyManifest({ bytes: file, mediaType: "image/jpeg" }, pki.rootCertPem, () => undefined, { fastValidator: false });
      fastMs.push(t1 - t0);
      engineMs.push(performance.now() - t1);
    }
    const median = (l: number[]) => [...l].sort((a, b) => a - b)[1]!;
    console.log(
      "F1 file",
      file.length,
      "fast ms",
      fastMs.map(Math.round),
      own,
      "| engine ms",
      engineMs.map(Math.round),
      engine!.facts.state,
    );
    const ta = performance.now();
    const inst = jpegManifestStoreInstances(file);
    const tb = performance.now();
    const parsedStore = parseJumbf(inst[0]!.store.status === "ok" ? inst[0]!.store.store : new Uint8Array());
    console.log(
      "F1 of which: store reassembly ms",
      Math.round(tb - ta),
      "parseJumbf ms",
      Math.round(performance.now() - tb),
      parsedStore.status,
    );
    expect(own!.status).toBe("defer");
    expect(median(fastMs)).toBeLessThan(median(engineMs));
  }, 120_000);
});
