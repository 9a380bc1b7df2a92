import { AUDIO_WATERMARK_MAX_SECONDS } from "../../catalog/limits";
import type { Bindings } from "../../env";
import { AUDIO_WATERMARK_KEY, detectAsVerified } from "../../media/audio";
import { wavLayout } from "../../media/codecs/audio/wav";
import type { AudioServices } from "../../media/types";
import { hex } from "../../platform/bytes";
import type { AdmittedRequest } from "../admission";
import type { WatermarkOutput } from "../outputs";
import type { JobRow, ObjectRow } from "../repo";
import { put, read, StepFailure } from "./common";

/**
 * Embeds a fresh random 64-bit payload with our audio watermark into a 16-bit PCM WAV, rewriting its samples in
 * place (every other chunk, and so every other byte, is kept), then reads the mark back as a verification reads the
 * output (its first minute): an output whose mark does not read back is a failure, never published. Returns the
 * stored output and its bytes for the sign step.
 */
export async function audioWatermarkStep(
  env: Bindings,
  audio: AudioServices,
  job: JobRow,
  admitted: AdmittedRequest,
  source: ObjectRow,
  upload: (() => Promise<Uint8Array | null>) | null = null,
): Promise<{ output: WatermarkOutput; bytes: Uint8Array }> {
  const algorithm = admitted.watermark_algorithm;
  const { watermarker } = audio;
  if (algorithm !== watermarker.algorithm)
    throw new StepFailure("svc.jobs.step_unavailable", `The ${algorithm} watermark is not installed in this deployment.`);
  const bytes = await (upload ? upload() : read(env.OBJECTS, source.r2Key, source.etag));
  if (!bytes) throw new StepFailure("svc.jobs.source_unavailable", "The uploaded bytes could not be read back unchanged.");
  const layout = wavLayout(bytes);
  if (layout.status !== "ok") throw new StepFailure("svc.jobs.decode_failed", layout.message);
  const { format, dataOffset, dataBytes } = layout;
  if (format.tag !== 1 || format.bits !== 16)
    throw new StepFailure(
      "svc.jobs.decode_failed",
      "The audio watermark is embedded into 16-bit PCM WAV only (samples rewritten in place).",
    );
  const frames = Math.floor(dataBytes / format.blockAlign);
  const seconds = frames / format.sampleRate;
  if (seconds > AUDIO_WATERMARK_MAX_SECONDS)
    throw new StepFailure(
      "svc.jobs.decode_failed",
      `The recording is ${Math.round(seconds)} s; the audio watermark takes at most ${AUDIO_WATERMARK_MAX_SECONDS} s.`,
    );
  // The samples, little-endian in the file, copied out aligned (the data chunk may start at an odd offset).
  let samples: Int16Array | null = new Int16Array(frames * format.channels);
  const view = new DataView(bytes.buffer, bytes.byteOffset + dataOffset, samples.length * 2);
  for (let i = 0; i < samples.length; i++) samples[i] = view.getInt16(2 * i, true);
  const payload = crypto.getRandomValues(new Uint8Array(8));
  const marked = watermarker.embed({
    pcm: samples,
    sampleRate: format.sampleRate,
    channels: format.channels,
    payload,
    key: AUDIO_WATERMARK_KEY,
  });
  samples = null;
  if (marked.status !== "embedded") throw new StepFailure("svc.jobs.watermark_failed", marked.message);
  // The read-back, as a verification reads the output (its first minute, mono): decoding a 16-bit PCM WAV gives
  // exactly these samples, so they are read here instead of decoding the file again (one copy of the audio fewer).
  const detected = detectAsVerified(watermarker, marked.pcm, format.sampleRate, format.channels);
  if (detected.status !== "detected" || hex(detected.payload) !== hex(payload))
    throw new StepFailure(
      "svc.jobs.watermark_failed",
      "The watermark did not read back from the output's first minute; nothing was published.",
    );
  // The output: the upload's bytes with the marked samples written over (the upload itself stays as it was).
  const output = bytes.slice();
  const out = new DataView(output.buffer, dataOffset, marked.pcm.length * 2);
  for (let i = 0; i < marked.pcm.length; i++) out.setInt16(2 * i, marked.pcm[i]!, true);
  const stored = await put(env.OBJECTS, `t/${job.tenantId}/jobs/${job.id}/watermark/output`, output, source.mediaType);
  return {
    output: {
      output: stored,
      algorithm,
      strength: admitted.watermark_strength ?? "balanced",
      payload: hex(payload),
      psnr_db: Math.round(marked.snr_db * 100) / 100,
      width: 0,
      height: 0,
    },
    bytes: output,
  };
}
