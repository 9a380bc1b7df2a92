import type { Bindings } from "../env";
import { signingConfigured } from "../media";
import { C2PA_EMBEDDED_MEDIA_TYPES } from "../media/c2pa/signer";
import { videoMedia } from "../media/video";
import { SVC_AUDIO_WATERMARK, SVC_IMAGE_WATERMARK } from "./algorithms";
import { type CapabilityProvider, CapabilityRegistry } from "./registry";

/** What the image codec (src/media/codecs) decodes and re-encodes: the watermark and fingerprints work on these. */
export const IMAGE_PIPELINE_MEDIA_TYPES = ["image/jpeg", "image/png", "image/webp", "image/tiff", "image/avif"];

/**
 * What the audio decoders (src/media/codecs/audio) decode: Chromaprint and the ISCC audio code work on these. AAC
 * (audio/mp4) has no decoder that fits a Worker here: it is not fingerprinted (rcp_system_sign refuses it; it is
 * signed with rcp_system_sign_only) and verified without fingerprint signals.
 */
export const AUDIO_PIPELINE_MEDIA_TYPES = ["audio/wav", "audio/flac", "audio/mpeg"];

/**
 * What our audio watermark is embedded into: 16-bit PCM WAV (samples rewritten in place), 16-bit FLAC (re-encoded
 * losslessly by our encoder) and MP3 (re-encoded by LAME in wasm at the source's bitrate). M4A/AAC has no encoder
 * that fits the Worker: signed without it (and verified with it: detection reads any decoded audio).
 */
export const AUDIO_WATERMARK_MEDIA_TYPES = ["audio/wav", "audio/flac", "audio/mpeg"];

/**
 * What the media Worker's FFmpeg decoder reads for video fingerprints (vPDQ, TMK+PDQF): MP4 and QuickTime (H.264,
 * HEVC, …), where the `VIDEO` service binding reaches the media Worker (wrangler.media.toml). Verification reads
 * both; publication fingerprints what a fingerprinting recipe signs (VIDEO_FINGERPRINT_MEDIA_TYPES: MP4, on the
 * embedded lane; a MOV is signed on the structural lane, without fingerprints).
 */
export const VIDEO_PIPELINE_MEDIA_TYPES = ["video/mp4", "video/quicktime"];
export const VIDEO_FINGERPRINT_MEDIA_TYPES = ["video/mp4"];

/**
 * The pipelines installed in this build, and what each really handles:
 * - `media.inspect`: the byte-sniffing inspector (src/media/inspect) covers every reviewed format;
 * - `c2pa.sign.embedded`: the c2pa-wasm signer, for the media types its reference-reader round trip proves
 *   (C2PA_EMBEDDED_MEDIA_TYPES), and `c2pa.sign.sidecar` for any bytes — both only when a signing credential
 *   is configured, since without one nothing can be signed;
 * - `storage.publish`: R2 publication.
 * - `watermark.embed` with our own image watermark, and `fingerprint.compute` with `iscc-image` and `pdq`
 *   (our wasm kernels in wasm/, behind src/media/watermark and src/media/fingerprint), for the image types the
 *   codec decodes and encodes (IMAGE_PIPELINE_MEDIA_TYPES). Learned models are never installed: no weights.
 * - `fingerprint.compute` with `chromaprint` and `iscc-audio` (our wasm/chromaprint kernel behind
 *   src/media/fingerprint/audio) for the audio the decoders read (AUDIO_PIPELINE_MEDIA_TYPES).
 * - `fingerprint.compute` with `vpdq` and `tmk-pdqf` for the video a fingerprinting recipe publishes and the media
 *   Worker decodes (VIDEO_FINGERPRINT_MEDIA_TYPES), only where the `VIDEO` binding reaches it (`config.video`).
 */
export function installedProviders(config: { signing: boolean; video?: boolean }): CapabilityProvider[] {
  const providers: CapabilityProvider[] = [
    { capability: "media.inspect", media_types: "*" },
    { capability: "storage.publish", media_types: "*" },
  ];
  for (const capability of [
    "watermark.embed",
    `watermark.${SVC_IMAGE_WATERMARK}`,
    "fingerprint.compute",
    "fingerprint.iscc-image",
    "fingerprint.pdq",
  ]) {
    providers.push({ capability, media_types: IMAGE_PIPELINE_MEDIA_TYPES });
  }
  for (const capability of ["fingerprint.compute", "fingerprint.chromaprint", "fingerprint.iscc-audio"]) {
    providers.push({ capability, media_types: AUDIO_PIPELINE_MEDIA_TYPES });
  }
  for (const capability of ["watermark.embed", `watermark.${SVC_AUDIO_WATERMARK}`]) {
    providers.push({ capability, media_types: AUDIO_WATERMARK_MEDIA_TYPES });
  }
  if (config.video) {
    for (const capability of ["fingerprint.compute", "fingerprint.vpdq", "fingerprint.tmk-pdqf"]) {
      providers.push({ capability, media_types: VIDEO_FINGERPRINT_MEDIA_TYPES });
    }
  }
  if (config.signing) {
    providers.push({ capability: "c2pa.sign.embedded", media_types: C2PA_EMBEDDED_MEDIA_TYPES });
    providers.push({ capability: "c2pa.sign.sidecar", media_types: "*" });
  }
  return providers;
}

const registries = new Map<string, CapabilityRegistry>();

/** The registry of this deployment's configuration (one per isolate and configuration). */
export function registryFor(
  env: Pick<Bindings, "SVC_C2PA_SIGNER_CHAIN_PEM" | "SVC_C2PA_SIGNER_KEY_PEM"> & { VIDEO?: unknown },
): CapabilityRegistry {
  const config = { signing: signingConfigured(env), video: videoMedia(env) !== null };
  const key = `${config.signing}:${config.video}`;
  let registry = registries.get(key);
  if (!registry) {
    registry = new CapabilityRegistry(installedProviders(config));
    registries.set(key, registry);
  }
  return registry;
}
