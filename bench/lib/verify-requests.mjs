// The requests of the verify benches against a running `npm start` (bench/verify-profile.mjs, bench/verify-cpu.mjs):
// the public 2.8 MP photograph of bench/verify.mjs (each request its own bytes) and signed 1 MP JPEGs as
// bench/verify-keyed.mjs makes them (each request its own file: the service keeps a store's trust verdict from
// its third read), sent as multipart with their own client address.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "..", "..");
const BOUNDARY = "svcbenchverifyboundary";

const parse = (text) =>
  Object.fromEntries(
    text
      .split("\n")
      .map((l) => /^([A-Z0-9_]+)=(.*)$/.exec(l.trim()))
      .filter(Boolean)
      .map((m) => [m[1], m[2].replace(/^"(.*)"$/s, "$1").replace(/\\n/g, "\n")]),
  );

/** The running service and its dev key (SVC_API_BASE_URL / SVC_API_KEY, else .svc/dev.env as npm start wrote it). */
export function devService() {
  const devEnv = existsSync(join(ROOT, ".svc", "dev.env")) ? parse(readFileSync(join(ROOT, ".svc", "dev.env"), "utf8")) : {};
  return { base: process.env.SVC_API_BASE_URL ?? devEnv.SVC_API_BASE_URL, key: process.env.SVC_API_KEY ?? devEnv.SVC_API_KEY };
}

/** `count` variants of the bench photograph: a counter in a JPEG comment, the same pixels. */
export async function publicFiles(count) {
  const { benchPhotograph } = await import("./images.mjs");
  const photo = Buffer.from((await benchPhotograph()).bytes);
  const stamp = Date.now();
  return Array.from({ length: count }, (_, n) => {
    const text = Buffer.from(`bench ${n} ${stamp}`);
    const com = Buffer.alloc(4);
    com.writeUInt16BE(0xfffe, 0);
    com.writeUInt16BE(text.length + 2, 2);
    return Buffer.concat([photo.subarray(0, 2), com, text, photo.subarray(2)]);
  });
}

/** `count` signed 1 MP JPEGs (a seeded photo-like scene, MozJPEG q90), signed with the dev PKI of .dev.vars. */
export async function keyedFiles(count) {
  const vars = parse(readFileSync(join(ROOT, ".dev.vars"), "utf8"));
  const out = join(ROOT, "dist", "bench");
  mkdirSync(out, { recursive: true });
  execFileSync(
    join(ROOT, "node_modules", ".bin", "esbuild"),
    [join(ROOT, "bench", "sign-entry.ts"), "--bundle", "--platform=node", "--format=esm", `--outfile=${join(out, "sign-entry.mjs")}`],
    { cwd: ROOT, stdio: "ignore" },
  );
  const { setup, devSigner } = await import(join(out, "sign-entry.mjs"));
  await setup();
  const raw = await benchScene();
  const signer = devSigner({
    chainPem: vars.SVC_C2PA_SIGNER_CHAIN_PEM,
    keyPem: vars.SVC_C2PA_SIGNER_KEY_PEM,
    tsaChainPem: vars.SVC_TSA_CHAIN_PEM,
    tsaKeyPem: vars.SVC_TSA_KEY_PEM,
  });
  const files = [];
  for (let i = 0; i < count; i++) {
    const signed = await signer.signEmbedded({
      bytes: raw,
      plan: { title: `bench-${i}.jpg`, media_type: "image/jpeg", intent: { kind: "opened" }, assertions: [] },
    });
    if (signed.status !== "signed") throw new Error(`signing failed: ${JSON.stringify(signed)}`);
    files.push(Buffer.from(signed.bytes));
  }
  return files;
}

/** The bench's 1 MP scene (a seeded photo-like image, MozJPEG q90), unsigned. */
async function benchScene() {
  const { makeImage, jpegEnc } = await import("./images.mjs");
  const img = makeImage("photo-textured", 1280, 800, 1);
  return new Uint8Array(
    await jpegEnc.default({ data: new Uint8ClampedArray(img.data.buffer), width: 1280, height: 800, colorSpace: "srgb" }, { quality: 90 }),
  );
}

/**
 * `count` 1 MP JPEGs published by the running service itself (upload, express sign with watermark and both image
 * fingerprints, download), each its own publication (its own watermark payload and manifest): the files a tenant
 * verifies after publishing them. `settleMs`: a wait after the last one, for the publications' deferred work (PDQ
 * windows, the verification pixel memo) to run, as it would have long before a real client verifies its file.
 */
export async function publishedFiles(count, { base, key, settleMs = 4000, inFlight = 2 } = devService()) {
  const { expressClient, jpegVariant } = await import("./express-requests.mjs");
  const client = expressClient({ base, key });
  const raw = await benchScene();
  const files = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < count) {
        const n = next++;
        const assetId = await client.upload(jpegVariant(raw, n));
        const signed = await client.signExpress(assetId);
        if (signed.status !== 200 || signed.body?.state !== "completed")
          throw new Error(`express sign: ${signed.status} ${JSON.stringify(signed.body)}`);
        const d = await client.call("POST", `/v1/assets/${assetId}/download`);
        if (d.status !== 200) throw new Error(`download: ${d.status} ${JSON.stringify(d.body)}`);
        const res = await fetch(d.body.url, { headers: d.body.headers });
        if (res.status !== 200) throw new Error(`download: ${res.status}`);
        files[n] = Buffer.from(await res.arrayBuffer());
      }
    }),
  );
  await new Promise((r) => setTimeout(r, settleMs));
  return files;
}

/** A POST /v1/verify of the next file (each file once), from its own client address; with `key`, keyed. */
export function verifier({ base, key, files }) {
  let n = 0;
  const seed = Date.now() % 250;
  return async () => {
    if (n >= files.length) throw new Error("verify bench: every file was verified already");
    const headers = {
      "content-type": `multipart/form-data; boundary=${BOUNDARY}`,
      "cf-connecting-ip": `10.${seed}.${(n >> 8) & 255}.${n & 255}`,
    };
    if (key) headers.authorization = `Bearer ${key}`;
    const body = Buffer.concat([
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="f.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`),
      files[n++],
      Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
    ]);
    const res = await fetch(`${base}/v1/verify`, { method: "POST", headers, body });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`POST /v1/verify: HTTP ${res.status} ${text.slice(0, 300)}`);
    return JSON.parse(text);
  };
}
