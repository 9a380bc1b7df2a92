/**
 * The C2PA signer: c2pa-wasm builds and embeds the manifest, our COSE code signs the claim with a WebCrypto key
 * and adds an RFC 3161 timestamp (`sigTst2`).
 */
import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import type { ManifestPlan, Signer, SignResult } from "../types";
import { buildCoseSign1, C2PA_ALGORITHM_NAMES, type CoseAlgorithm, webCryptoSigner } from "./cose";
import { ByteSource, isC2paEngineReady, WasmBuilder } from "./engine";
import { activeManifestLabel, containsManifestStore } from "./signed-store";
import { requestTimestamp, type TsaConfig, tsaConfigFrom } from "./tsa";
import { pemBlocks } from "./tsa-der";

/**
 * Media types the engine embeds into, each proven by the reference-reader round trip in
 * test/node/media/c2pa-signer.test.ts (c2pa-wasm 0.13.3 signs, c2pa-node 0.8.0 judges it Trusted).
 */
export const C2PA_EMBEDDED_MEDIA_TYPES: readonly string[] = [
  "image/jpeg",
  "image/png",
  "image/webp",
  "image/tiff",
  "image/x-adobe-dng",
  "image/gif",
  "image/avif",
  "image/heic",
  "image/heif",
  "image/jxl",
  "image/svg+xml",
  "video/mp4",
  "video/quicktime",
  "video/x-msvideo",
  "audio/mp4",
  "audio/mpeg",
  "audio/wav",
  "audio/flac",
  "application/pdf",
];

/** Label of the assertion carrying the opaque creator reference (never a name or e-mail). */
export const CREATOR_ASSERTION_LABEL = "svc.creator";
/** Label of the assertion stating the capture admission a file passed (device attestation gate). */
export const CAPTURE_ASSERTION_LABEL = "svc.capture";

const IPTC_DIGITAL_SOURCE_TYPE = "http://cv.iptc.org/newscodes/digitalsourcetype/";
const C2PA_DIGITAL_SOURCE_TYPE = "http://c2pa.org/digitalsourcetype/";
const C2PA_ONLY_SOURCE_TYPES = new Set(["empty", "trainedAlgorithmicData"]);

/** Configuration of a C2paSigner. */
export interface C2paSignerOptions {
  /** PEM certificates, signer first, then intermediates; never the root (the verifier's trust anchor). */
  certChainPem: string;
  /** PKCS#8 PEM, or a (possibly non-extractable) WebCrypto private key with usage "sign". */
  privateKey: string | CryptoKey;
  /** Defaults to what the signer certificate's key is (P-256 → ES256, P-384 → ES384, Ed25519). */
  algorithm?: CoseAlgorithm;
  /** Where timestamps come from; null or absent: no timestamp. */
  tsa?: TsaConfig | null;
  claimGenerator?: { name: string; version: string };
  /** Override the embedded media types (e.g. to disable one); defaults to C2PA_EMBEDDED_MEDIA_TYPES. */
  embeddedMediaTypes?: readonly string[];
  /** Largest asset `signEmbedded` accepts; defaults to DEFAULT_MAX_EMBEDDED_BYTES. */
  maxEmbeddedBytes?: number;
}

/**
 * Embedding runs the asset through the engine, whose wasm memory peaks at about 8 times the asset size and never
 * shrinks (c2pa-wasm 0.13.3, WAV: 10 MB → 81 MB in Node; 12 MiB → 94 MiB in workerd). With the caller's copy and
 * the signed output on the JS heap, 10 MiB is about what a 128 MB Workers isolate survives; larger assets get a
 * `failed` result instead of an out-of-memory isolate. Sidecar signing has no such limit (the asset never enters
 * the engine).
 */
export const DEFAULT_MAX_EMBEDDED_BYTES = 10 * 1024 * 1024;

/**
 * A `Signer` backed by c2pa-wasm. Invariants: the engine must have been initialized (`initC2paEngine`) before
 * signing, else results are `failed`; `signEmbedded`/`signSidecar` never throw; every `signed` result carries a
 * COSE_Sign1 with the configured chain, a `sigTst2` timestamp when a TSA is configured (a TSA failure fails the
 * signing), a `c2pa.actions.v2` assertion with `c2pa.opened` (+ parentOf ingredient) or `c2pa.created` (+ digital
 * source type), and the plan's extra assertions; sidecar results return the input bytes unchanged (bound by a
 * data hash over the whole file); `signEmbedded` refuses assets above `maxEmbeddedBytes` (engine memory).
 */
export class C2paSigner implements Signer {
  readonly embeddedMediaTypes: readonly string[];
  readonly sidecar = true;
  readonly algorithm: CoseAlgorithm;
  readonly #certChainDer: Uint8Array[];
  readonly #keyInput: string | CryptoKey;
  #key: Promise<CryptoKey> | null = null;
  readonly #tsa: TsaConfig | null;
  readonly #claimGenerator: { name: string; version: string };
  readonly #maxEmbeddedBytes: number;

  /** Throws on an unusable configuration (no certificate, unknown key type, algorithm mismatch). */
  constructor(options: C2paSignerOptions) {
    this.#certChainDer = pemBlocks(options.certChainPem, "CERTIFICATE");
    if (this.#certChainDer.length === 0) throw new Error("C2paSigner: no certificate in the chain PEM");
    const certAlgorithm = algorithmOfCertificate(this.#certChainDer[0]!);
    if (options.algorithm && options.algorithm !== certAlgorithm) {
      throw new Error(`C2paSigner: algorithm ${options.algorithm} does not match the ${certAlgorithm} certificate`);
    }
    this.algorithm = certAlgorithm;
    this.#keyInput = options.privateKey;
    this.#tsa = options.tsa ?? null;
    this.#claimGenerator = options.claimGenerator ?? { name: "svc", version: "0.1.0" };
    this.embeddedMediaTypes = options.embeddedMediaTypes ?? C2PA_EMBEDDED_MEDIA_TYPES;
    this.#maxEmbeddedBytes = options.maxEmbeddedBytes ?? DEFAULT_MAX_EMBEDDED_BYTES;
  }

  async signEmbedded(input: { bytes: Uint8Array; plan: ManifestPlan }): Promise<SignResult> {
    const mediaType = normalizeMediaType(input.plan.media_type);
    if (!this.embeddedMediaTypes.includes(mediaType)) {
      return { status: "unsupported_media_type", message: `C2PA embedding is not available for ${mediaType}` };
    }
    if (input.bytes.length > this.#maxEmbeddedBytes) {
      return {
        status: "failed",
        message: `asset of ${input.bytes.length} bytes exceeds the ${this.#maxEmbeddedBytes}-byte limit of embedded signing`,
      };
    }
    return this.#run({ source: input.bytes, plan: input.plan, mediaType, format: mediaType, noEmbed: false });
  }

  async signSidecar(input: { bytes: Uint8Array; plan: ManifestPlan }): Promise<SignResult> {
    const { bytes, plan } = input;
    const mediaType = normalizeMediaType(plan.media_type);
    // The asset does not go through the engine's format handlers: in sidecar mode they strip an embedded manifest
    // (PDF's even re-serializes the file) and bind the result, while a sidecar must bind the caller's unchanged
    // bytes; and the engine's memory would grow to several times the asset size. We hash the bytes with WebCrypto
    // and hand the engine a hard binding over the whole file. Only bytes that already carry a manifest store enter
    // the engine, as the parent ingredient, so that their provenance chain is kept.
    const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
    const parent =
      plan.intent.kind === "opened" && this.embeddedMediaTypes.includes(mediaType) && containsManifestStore(bytes) ? bytes : undefined;
    const result = await this.#run({
      source: new Uint8Array(0),
      plan,
      mediaType,
      format: GENERIC_FORMAT,
      noEmbed: true,
      binding: dataHashBinding(hash),
      parent,
    });
    return result.status === "signed" ? { ...result, bytes } : result;
  }

  /**
   * The manifest store alone, over a hard binding the caller computed (the streaming signer hashes media it never
   * holds whole: stream-sign.ts). The engine sees no asset; the plan's parent, if any, is declared without a manifest.
   */
  async signManifestStore(input: { plan: ManifestPlan; binding: HardBinding }): Promise<SignResult> {
    const mediaType = normalizeMediaType(input.plan.media_type);
    const run = { source: new Uint8Array(0), plan: input.plan, mediaType, format: GENERIC_FORMAT, noEmbed: true };
    return this.#run({ ...run, binding: input.binding });
  }

  /**
   * One engine run over `source`: `format` selects the engine's format handler, `mediaType` is what the claim
   * records; `binding`, when given, is the hard binding of the real asset (which the engine then never sees,
   * except as `parent`: the bytes to read the parentOf ingredient from, manifest included).
   */
  async #run(run: {
    source: Uint8Array;
    plan: ManifestPlan;
    mediaType: string;
    format: string;
    noEmbed: boolean;
    binding?: HardBinding;
    parent?: Uint8Array | undefined;
  }): Promise<SignResult> {
    if (!isC2paEngineReady()) return { status: "failed", message: "C2PA engine not initialized" };
    let builder: WasmBuilder | null = null;
    const callback = { error: null as string | null };
    try {
      const key = await this.#privateKey();
      const definition = this.#definition(run.plan, run.mediaType, run.binding, !run.parent);
      builder = WasmBuilder.fromJson(JSON.stringify(definition), BUILDER_SETTINGS_JSON);
      if (run.parent) {
        const ingredient = { title: run.plan.title, relationship: "parentOf" };
        try {
          await builder.addIngredientFromBlob(JSON.stringify(ingredient), run.mediaType, new ByteSource(run.parent).asBlob());
        } catch {
          // Unreadable as its format: the parent is still declared, without its manifest.
          builder.addIngredient(JSON.stringify({ ...ingredient, format: run.mediaType }));
        }
      }
      builder.setIntent(intentOf(run.plan));
      if (run.noEmbed) builder.setNoEmbed(true);
      const output = (await builder.signAndGetManifestBytes(
        this.#signerDefinition(key, callback),
        [],
        run.format,
        new ByteSource(run.source, run.format).asBlob(),
      )) as { manifest: Uint8Array | number[]; asset: Uint8Array | number[] };
      const manifestStore = toBytes(output.manifest);
      const label = activeManifestLabel(manifestStore);
      if (!label) return { status: "failed", message: "C2PA engine returned a manifest store without a manifest" };
      const signed = toBytes(output.asset);
      return { status: "signed", bytes: signed, manifest_store: manifestStore, active_manifest_label: label };
    } catch (err) {
      // A failure in our signing callback (key, TSA) reaches us wrapped by the engine: report its own message.
      if (callback.error) return { status: "failed", message: callback.error };
      const message = errorMessage(err);
      return { status: isUnsupportedTypeError(message) ? "unsupported_media_type" : "failed", message };
    } finally {
      builder?.free();
    }
  }

  #definition(plan: ManifestPlan, mediaType: string, binding: HardBinding | undefined, declareParent: boolean) {
    const assertions = plan.assertions.map((a): { label: string; data: unknown } => ({ label: a.label, data: a.data }));
    if (plan.creator) {
      assertions.push({
        label: CREATOR_ASSERTION_LABEL,
        data: { creator_ref: plan.creator.creator_ref, commitment: plan.creator.commitment },
      });
    }
    if (plan.capture) assertions.push({ label: CAPTURE_ASSERTION_LABEL, data: { ...plan.capture } });
    const definition: Record<string, unknown> = {
      claim_generator_info: [{ name: this.#claimGenerator.name, version: this.#claimGenerator.version }],
      title: plan.title,
      format: mediaType,
      assertions,
    };
    if (binding) {
      // A hard binding of our own turns the engine's hashing off.
      assertions.push(binding);
      if (plan.intent.kind === "opened" && declareParent) {
        definition.ingredients = [{ title: plan.title, format: mediaType, relationship: "parentOf" }];
      }
    }
    return definition;
  }

  /** The engine's signer: our COSE_Sign1 (+ timestamp); a failure is recorded in `callback` before rethrowing. */
  #signerDefinition(key: CryptoKey, callback: { error: string | null }) {
    const algorithm = this.algorithm;
    const certChainDer = this.#certChainDer;
    const tsa = this.#tsa;
    const sign = webCryptoSigner(algorithm, key);
    const reserveSize = coseReserveSize(algorithm, certChainDer, tsa !== null);
    return {
      alg: C2PA_ALGORITHM_NAMES[algorithm],
      reserveSize,
      sign: async (claim: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> => {
        try {
          const cose = await buildCoseSign1({
            algorithm,
            certChainDer,
            payload: claim,
            sign,
            timestamp: tsa ? (data) => requestTimestamp(data, tsa) : undefined,
            reserveSize,
          });
          return cose as Uint8Array<ArrayBuffer>;
        } catch (err) {
          callback.error = `claim signing failed: ${errorMessage(err)}`;
          throw err;
        }
      },
    };
  }

  #privateKey(): Promise<CryptoKey> {
    if (!this.#key) {
      const input = this.#keyInput;
      this.#key = typeof input === "string" ? importPrivateKey(input, this.algorithm) : Promise.resolve(input);
      this.#key.catch(() => (this.#key = null));
    }
    return this.#key;
  }
}

/**
 * A hard-binding assertion (`c2pa.hash.data`, `c2pa.hash.bmff.v2`, …) as engine JSON. JSON has no bytes: serde reads
 * byte fields (hash, exclusion values) from arrays of numbers and writes CBOR byte strings.
 */
export interface HardBinding {
  label: string;
  data: Record<string, unknown>;
}

/** A data hash over the whole file (no exclusions). */
function dataHashBinding(hash: Uint8Array): HardBinding {
  return { label: "c2pa.hash.data", data: { exclusions: [], name: "jumbf manifest", alg: "sha256", hash: Array.from(hash), pad: [] } };
}

/** Engine format of the generic handler (no parsing). */
const GENERIC_FORMAT = "application/octet-stream";

/** Settings of every builder: no thumbnails (CPU and memory in workerd), no second verification pass. */
const BUILDER_SETTINGS_JSON = JSON.stringify({
  builder: { thumbnail: { enabled: false } },
  verify: { verify_after_sign: false },
});

/** c2pa-rs's sizing: raw signature + certificates + COSE framing, + 10 000 bytes when a timestamp is added. */
function coseReserveSize(algorithm: CoseAlgorithm, certs: readonly Uint8Array[], timestamp: boolean): number {
  const signature = algorithm === "ES384" ? 96 : 64;
  return signature + certs.reduce((n, c) => n + c.length, 0) + 1024 + (timestamp ? 10_000 : 0);
}

function intentOf(plan: ManifestPlan): unknown {
  if (plan.intent.kind === "opened") return "edit";
  return { create: digitalSourceTypeUrl(plan.intent.digital_source_type) };
}

/** Accepts an IPTC/C2PA digital source type URL or its bare term (e.g. `trainedAlgorithmicMedia`). */
export function digitalSourceTypeUrl(value: string): string {
  const v = value.trim();
  if (v.includes("://")) return v;
  return (C2PA_ONLY_SOURCE_TYPES.has(v) ? C2PA_DIGITAL_SOURCE_TYPE : IPTC_DIGITAL_SOURCE_TYPE) + v;
}

function normalizeMediaType(mediaType: string): string {
  const base = mediaType.split(";")[0]!.trim().toLowerCase();
  switch (base) {
    case "audio/x-wav":
    case "audio/wave":
    case "audio/vnd.wave":
      return "audio/wav";
    case "audio/x-flac":
      return "audio/flac";
    case "audio/x-m4a":
      return "audio/mp4";
    case "image/jpg":
      return "image/jpeg";
    case "video/avi":
    case "video/msvideo":
      return "video/x-msvideo";
    default:
      return base;
  }
}

async function importPrivateKey(pem: string, algorithm: CoseAlgorithm): Promise<CryptoKey> {
  const der = pemBlocks(pem, "PRIVATE KEY")[0];
  if (!der) throw new Error("signer key: no PKCS#8 PEM block (BEGIN PRIVATE KEY)");
  const params = algorithm === "Ed25519" ? { name: "Ed25519" } : { name: "ECDSA", namedCurve: algorithm === "ES384" ? "P-384" : "P-256" };
  return crypto.subtle.importKey("pkcs8", der, params, false, ["sign"]);
}

/** The COSE algorithm matching the certificate's public key. */
function algorithmOfCertificate(der: Uint8Array): CoseAlgorithm {
  const cert = pkijs.Certificate.fromBER(der);
  const spkiAlg = cert.subjectPublicKeyInfo.algorithm;
  if (spkiAlg.algorithmId === "1.3.101.112") return "Ed25519";
  if (spkiAlg.algorithmId === "1.2.840.10045.2.1" && spkiAlg.algorithmParams instanceof asn1js.ObjectIdentifier) {
    const curve = spkiAlg.algorithmParams.valueBlock.toString();
    if (curve === "1.2.840.10045.3.1.7") return "ES256";
    if (curve === "1.3.132.0.34") return "ES384";
  }
  throw new Error(`C2paSigner: unsupported signer key type ${spkiAlg.algorithmId}`);
}

function toBytes(value: Uint8Array | number[] | ArrayBuffer): Uint8Array {
  if (value instanceof Uint8Array) return value;
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  return Uint8Array.from(value);
}

function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (typeof err === "string") return err;
  try {
    return JSON.stringify(err);
  } catch {
    return String(err);
  }
}

function isUnsupportedTypeError(message: string): boolean {
  return /unsupported\s*type|UnsupportedType|type is unsupported|cannot contain C2PA manifests/i.test(message);
}

/** The signing settings among the Worker's bindings (all optional strings; see src/env.ts). */
export interface C2paSignerBindings {
  SVC_C2PA_SIGNER_CHAIN_PEM?: string;
  SVC_C2PA_SIGNER_KEY_PEM?: string;
  SVC_TSA_URL?: string;
  SVC_TSA_CHAIN_PEM?: string;
  SVC_TSA_KEY_PEM?: string;
}

let cachedSigner: { fingerprint: string; signer: C2paSigner } | null = null;

/**
 * The signer configured by the bindings, or null when the signing certificate or key is missing. One instance
 * per isolate and configuration, so the key is imported once. Throws on an unusable configuration (e.g. TSA URL
 * "internal" without the TSA credentials).
 */
export function c2paSignerFromBindings(env: C2paSignerBindings): C2paSigner | null {
  const chain = env.SVC_C2PA_SIGNER_CHAIN_PEM;
  const key = env.SVC_C2PA_SIGNER_KEY_PEM;
  if (!chain || !key) return null;
  const fingerprint = [chain, key, env.SVC_TSA_URL, env.SVC_TSA_CHAIN_PEM, env.SVC_TSA_KEY_PEM].join("\u0000");
  if (cachedSigner?.fingerprint !== fingerprint) {
    const tsa = tsaConfigFrom({
      url: env.SVC_TSA_URL,
      chainPem: env.SVC_TSA_CHAIN_PEM,
      keyPkcs8Pem: env.SVC_TSA_KEY_PEM,
    });
    cachedSigner = { fingerprint, signer: new C2paSigner({ certChainPem: chain, privateKey: key, tsa }) };
  }
  return cachedSigner.signer;
}
