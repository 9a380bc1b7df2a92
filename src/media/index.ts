import type { Bindings } from "../env";
import { C2paManifestReader } from "./c2pa/reader";
import { c2paSignerFromBindings } from "./c2pa/signer";
import { ByteSniffingInspector } from "./inspect";
import type { AudioServices, ImageServices, ManifestReader, MediaInspector, Signer } from "./types";

/*
 * The media services of this Worker, built from its configuration once per isolate. Routes and jobs take them
 * from here and see only the interfaces in types.ts.
 */

const inspector = new ByteSniffingInspector();

export function mediaInspector(): MediaInspector {
  return inspector;
}

/** Whether a signing credential is configured; without one, nothing is offered for signing. */
export function signingConfigured(env: Pick<Bindings, "SVC_C2PA_SIGNER_CHAIN_PEM" | "SVC_C2PA_SIGNER_KEY_PEM">): boolean {
  return Boolean(env.SVC_C2PA_SIGNER_CHAIN_PEM && env.SVC_C2PA_SIGNER_KEY_PEM);
}

let reader: { anchors: string | null; reader: ManifestReader } | null = null;

/**
 * The signer and reader of this configuration. The engine module (a `.wasm` import, which only workerd can
 * load) is imported on first use, so code that merely builds the app (the OpenAPI document in Node) never
 * touches it. The signer is the one `c2paSignerFromBindings` keeps per isolate and configuration.
 */
export async function mediaServices(
  env: Bindings,
): Promise<{ signer: Signer; reader: ManifestReader; image: ImageServices; audio: () => Promise<AudioServices> }> {
  const { ensureC2paEngine } = await import("./c2pa/engine-workerd");
  ensureC2paEngine();
  const signer = c2paSignerFromBindings(env);
  if (!signer) throw new Error("no signing credential configured");
  const anchors = env.SVC_TRUST_ANCHORS_PEM ?? null;
  if (reader?.anchors !== anchors) reader = { anchors, reader: new C2paManifestReader(anchors, ensureC2paEngine) };
  return { signer, reader: reader.reader, image: await imageServices(), audio: audioServices };
}

let imageServicesInstance: Promise<ImageServices> | null = null;

/** Codec, watermark and fingerprints (all `.wasm` modules, so imported on first use, in workerd only). */
export function imageServices(): Promise<ImageServices> {
  imageServicesInstance ??= import("./image-workerd").then((m) => m.workerdImageServices());
  return imageServicesInstance;
}

let audioServicesInstance: Promise<AudioServices> | null = null;

/** Audio decoders and Chromaprint (`.wasm` modules, so imported on first use, in workerd only). */
export function audioServices(): Promise<AudioServices> {
  audioServicesInstance ??= import("./audio-workerd").then((m) => m.workerdAudioServices());
  return audioServicesInstance;
}

let previewerInstance: Promise<import("./types").Previewer> | null = null;

/** The preview renderer (its codecs are `.wasm` modules, so it is imported on first use, in workerd only). */
export function previewer(): Promise<import("./types").Previewer> {
  previewerInstance ??= import("./preview/previewer").then((m) => new m.JsquashPreviewer());
  return previewerInstance;
}
