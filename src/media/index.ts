import type { Bindings } from "../env";
import { C2paManifestReader } from "./c2pa/reader";
import { C2paSigner } from "./c2pa/signer";
import { tsaConfigFrom } from "./c2pa/tsa";
import { ByteSniffingInspector } from "./inspect";
import type { ManifestReader, MediaInspector, Signer } from "./types";

/*
 * The media services of this Worker, built from its configuration once per isolate. Routes and jobs take them
 * from here and see only the interfaces in types.ts.
 */

const inspector = new ByteSniffingInspector();

export function mediaInspector(): MediaInspector {
  return inspector;
}

/** Whether a signing credential is configured; without one, nothing is offered for signing. */
export function signingConfigured(env: Bindings): boolean {
  return Boolean(env.SVC_C2PA_SIGNER_CHAIN_PEM && env.SVC_C2PA_SIGNER_KEY_PEM);
}

let cached: { key: string; signer: Signer; reader: ManifestReader } | null = null;

/**
 * The signer and reader of this configuration. The engine module (a `.wasm` import, which only workerd can
 * load) is imported on first use, so code that merely builds the app (the OpenAPI document in Node) never
 * touches it.
 */
export async function mediaServices(env: Bindings): Promise<{ signer: Signer; reader: ManifestReader }> {
  if (!signingConfigured(env)) throw new Error("no signing credential configured");
  const key = `${env.SVC_C2PA_SIGNER_CHAIN_PEM}|${env.SVC_TSA_URL ?? ""}|${env.SVC_TRUST_ANCHORS_PEM ?? ""}`;
  if (cached?.key !== key) {
    const { ensureC2paEngine } = await import("./c2pa/engine-workerd");
    ensureC2paEngine();
    const signer = new C2paSigner({
      certChainPem: env.SVC_C2PA_SIGNER_CHAIN_PEM!,
      privateKey: env.SVC_C2PA_SIGNER_KEY_PEM!,
      tsa: tsaConfigFrom({ url: env.SVC_TSA_URL, chainPem: env.SVC_TSA_CHAIN_PEM, keyPkcs8Pem: env.SVC_TSA_KEY_PEM }),
    });
    cached = { key, signer, reader: new C2paManifestReader(env.SVC_TRUST_ANCHORS_PEM ?? null, ensureC2paEngine) };
  }
  return { signer: cached.signer, reader: cached.reader };
}

let previewerInstance: Promise<import("./types").Previewer> | null = null;

/** The preview renderer (its codecs are `.wasm` modules, so it is imported on first use, in workerd only). */
export function previewer(): Promise<import("./types").Previewer> {
  previewerInstance ??= import("./preview/previewer").then((m) => new m.JsquashPreviewer());
  return previewerInstance;
}
