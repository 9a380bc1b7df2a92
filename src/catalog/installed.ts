import type { Bindings } from "../env";
import { signingConfigured } from "../media";
import { C2PA_EMBEDDED_MEDIA_TYPES } from "../media/c2pa/signer";
import { CapabilityRegistry, type CapabilityProvider } from "./registry";

/**
 * The pipelines installed in this build, and what each really handles:
 * - `media.inspect`: the byte-sniffing inspector (src/media/inspect) covers every reviewed format;
 * - `c2pa.sign.embedded`: the c2pa-wasm signer, for the media types its reference-reader round trip proves
 *   (C2PA_EMBEDDED_MEDIA_TYPES), and `c2pa.sign.sidecar` for any bytes — both only when a signing credential
 *   is configured, since without one nothing can be signed;
 * - `storage.publish`: R2 publication.
 * Watermark and fingerprint pipelines are not installed yet, so recipes that need them stay unavailable.
 */
export function installedProviders(config: { signing: boolean }): CapabilityProvider[] {
  const providers: CapabilityProvider[] = [
    { capability: "media.inspect", media_types: "*" },
    { capability: "storage.publish", media_types: "*" },
  ];
  if (config.signing) {
    providers.push({ capability: "c2pa.sign.embedded", media_types: C2PA_EMBEDDED_MEDIA_TYPES });
    providers.push({ capability: "c2pa.sign.sidecar", media_types: "*" });
  }
  return providers;
}

const registries = new Map<boolean, CapabilityRegistry>();

/** The registry of this deployment's configuration (one per isolate and configuration). */
export function registryFor(env: Pick<Bindings, "SVC_C2PA_SIGNER_CHAIN_PEM" | "SVC_C2PA_SIGNER_KEY_PEM">): CapabilityRegistry {
  const signing = signingConfigured(env);
  let registry = registries.get(signing);
  if (!registry) {
    registry = new CapabilityRegistry(installedProviders({ signing }));
    registries.set(signing, registry);
  }
  return registry;
}
