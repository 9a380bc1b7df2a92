import { AUDIO_WATERMARK_MAX_PCM_BYTES, AUDIO_WATERMARK_MAX_SECONDS } from "../../catalog/limits";
import type { Bindings } from "../../env";
import {
  AUDIO_WATERMARK_KEY,
  detectAsVerified,
  MonoCollector,
  PcmCollector,
  WATERMARK_READ_MAX_SAMPLES,
  WATERMARK_READ_SECONDS,
} from "../../media/audio";
import { readFlacHeader } from "../../media/codecs/audio/flac";
import { flacKeptMetadata } from "../../media/codecs/audio/flac-encode";
import { mp3Source } from "../../media/codecs/audio/mp3-encode";
import { wavLayout } from "../../media/codecs/audio/wav";
import type { AudioServices, AudioSink, AudioWatermarker } from "../../media/types";
import { hex } from "../../platform/bytes";
import type { AdmittedRequest } from "../admission";
import type { WatermarkOutput } from "../outputs";
import type { JobRow, ObjectRow } from "../repo";
import { put, read, StepFailure } from "./common";

/**
 * Embeds a fresh random 64-bit payload with our audio watermark and writes the output in the upload's own format:
 * a 16-bit PCM WAV has its samples rewritten in place (every other chunk, and so every other byte, kept); a 16-bit
 * FLAC is decoded, marked and re-encoded losslessly by our encoder (its metadata blocks kept, SEEKTABLE and PADDING dropped); an
 * MP3 (layer III) is decoded, marked and re-encoded by LAME at its bitrate (a VBR source's average, as CBR), rate and
 * channel count, its ID3 tags kept (leading ID3v2, appended ID3v2.4, ID3v1; an APE tag is not). Then the mark is read back from the output's bytes as a verification reads it
 * (decoded, its first minute): an output whose mark does not read back (or a FLAC that does not decode to exactly the
 * marked samples) is a failure, never published. Returns the stored output and its bytes for the sign step.
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
  const payload = crypto.getRandomValues(new Uint8Array(8));
  const type = essence(source.mediaType);
  const marked =
    type === "audio/flac"
      ? await markFlac(audio, bytes, payload)
      : type === "audio/mpeg"
        ? await markMp3(audio, bytes, payload)
        : markWav(watermarker, bytes, payload);
  const output = marked.bytes;
  const stored = await put(env.OBJECTS, `t/${job.tenantId}/jobs/${job.id}/watermark/output`, output, source.mediaType);
  return {
    output: {
      output: stored,
      algorithm,
      strength: admitted.watermark_strength ?? "balanced",
      payload: hex(payload),
      psnr_db: Math.round(marked.snrDb * 100) / 100,
      width: 0,
      height: 0,
    },
    bytes: output,
  };
}

const essence = (mediaType: string) => mediaType.split(";", 1)[0]!.trim().toLowerCase();

interface Marked {
  bytes: Uint8Array;
  /** SNR of the marked samples against the decoded input (the embed's; an MP3's own encode adds its codec noise). */
  snrDb: number;
}

const notReadBack = () =>
  new StepFailure("svc.jobs.watermark_failed", "The watermark did not read back from the output's first minute; nothing was published.");

/** The length and memory checks every format shares (admission checks the same from the inspection). */
function checkLength(frames: number, sampleRate: number, channels: number): void {
  const seconds = frames / sampleRate;
  if (seconds > AUDIO_WATERMARK_MAX_SECONDS)
    throw new StepFailure(
      "svc.jobs.decode_failed",
      `The recording is ${Math.round(seconds)} s; the audio watermark takes at most ${AUDIO_WATERMARK_MAX_SECONDS} s.`,
    );
  if (frames * channels * 2 > AUDIO_WATERMARK_MAX_PCM_BYTES) throw tooManySamples(frames * channels);
}

const tooManySamples = (samples: number) =>
  new StepFailure(
    "svc.jobs.decode_failed",
    `The recording's 16-bit samples take more than ${AUDIO_WATERMARK_MAX_PCM_BYTES / 2 ** 20} MiB${samples * 2 > AUDIO_WATERMARK_MAX_PCM_BYTES + 64 ? ` (${Math.ceil((samples * 2) / 2 ** 20)} MiB)` : ""}; the audio watermark holds at most that.`,
  );

function embed(watermarker: AudioWatermarker, pcm: Int16Array, sampleRate: number, channels: number, payload: Uint8Array) {
  const marked = watermarker.embed({ pcm, sampleRate, channels, payload, key: AUDIO_WATERMARK_KEY });
  if (marked.status !== "embedded") throw new StepFailure("svc.jobs.watermark_failed", marked.message);
  return marked;
}

/** 16-bit PCM WAV: the samples rewritten in place. */
function markWav(watermarker: AudioWatermarker, bytes: Uint8Array, payload: Uint8Array): Marked {
  const layout = wavLayout(bytes);
  if (layout.status !== "ok") throw new StepFailure("svc.jobs.decode_failed", layout.message);
  const { format, dataOffset, dataBytes } = layout;
  if (format.tag !== 1 || format.bits !== 16)
    throw new StepFailure(
      "svc.jobs.decode_failed",
      "The audio watermark is embedded into 16-bit PCM WAV only (samples rewritten in place).",
    );
  const frames = Math.floor(dataBytes / format.blockAlign);
  checkLength(frames, format.sampleRate, format.channels);
  // The samples, little-endian in the file, copied out aligned (the data chunk may start at an odd offset).
  let samples: Int16Array | null = new Int16Array(frames * format.channels);
  const view = new DataView(bytes.buffer, bytes.byteOffset + dataOffset, samples.length * 2);
  for (let i = 0; i < samples.length; i++) samples[i] = view.getInt16(2 * i, true);
  const marked = embed(watermarker, samples, format.sampleRate, format.channels, payload);
  samples = null;
  // The read-back, as a verification reads the output (its first minute, mono): decoding a 16-bit PCM WAV gives
  // exactly these samples, so they are read here instead of decoding the file again (one copy of the audio fewer).
  const detected = detectAsVerified(watermarker, marked.pcm, format.sampleRate, format.channels);
  if (detected.status !== "detected" || hex(detected.payload) !== hex(payload)) throw notReadBack();
  // The output: the upload's bytes with the marked samples written over (the upload itself stays as it was).
  const output = bytes.slice();
  const out = new DataView(output.buffer, dataOffset, marked.pcm.length * 2);
  for (let i = 0; i < marked.pcm.length; i++) out.setInt16(2 * i, marked.pcm[i]!, true);
  return { bytes: output, snrDb: marked.snr_db };
}

/** The whole decoded audio of `bytes` (at most the limits' worth: more is refused), or a decode_failed. */
async function decodeWhole(audio: AudioServices, bytes: Uint8Array, mediaType: string, hintFrames: number): Promise<PcmCollector> {
  // A frame budget a little past both limits, so a longer recording is told apart from one at the limit.
  const collector = new PcmCollector(AUDIO_WATERMARK_MAX_PCM_BYTES / 2, hintFrames);
  const decoded = await audio.decoder.decode(bytes, mediaType, collector, { maxSeconds: AUDIO_WATERMARK_MAX_SECONDS + 1 });
  if (decoded.status !== "decoded") throw new StepFailure("svc.jobs.decode_failed", decoded.message);
  // A file that goes on with another stream would be published as its first part only.
  if (decoded.otherStream)
    throw new StepFailure(
      "svc.jobs.decode_failed",
      "The recording changes its sample rate or channel count partway (joined files): the audio watermark takes one stream.",
    );
  // Past either limit the decode stopped early: the recording is longer than the step takes.
  if (collector.overflowed) throw tooManySamples(collector.pcm().length + decoded.channels);
  if (decoded.truncated) checkLength((AUDIO_WATERMARK_MAX_SECONDS + 1) * decoded.sampleRate, decoded.sampleRate, 1);
  checkLength(decoded.frames, decoded.sampleRate, decoded.channels);
  return collector;
}

/**
 * Reads the mark from `output` as a verification does (decoded; its first minute as mono), feeding `also` the
 * whole decode (the FLAC path compares every sample); throws unless it carries `payload`.
 */
async function readBack(
  audio: AudioServices,
  output: Uint8Array,
  mediaType: string,
  payload: Uint8Array,
  also: AudioSink | null,
): Promise<void> {
  const mono = new MonoCollector(WATERMARK_READ_MAX_SAMPLES);
  const sink: AudioSink = also
    ? {
        start: (rate, channels) => {
          mono.start(rate, channels);
          also.start(rate, channels);
        },
        write: (pcm) => {
          mono.write(pcm);
          also.write(pcm);
        },
      }
    : mono;
  const decoded = await audio.decoder.decode(output, mediaType, sink, also ? undefined : { maxSeconds: WATERMARK_READ_SECONDS });
  if (decoded.status !== "decoded")
    throw new StepFailure("svc.jobs.watermark_failed", `The watermarked output could not be decoded back: ${decoded.message}`);
  const detected = audio.watermarker.detect({ pcm: mono.mono(), sampleRate: mono.sampleRate, channels: 1, key: AUDIO_WATERMARK_KEY });
  if (detected.status !== "detected" || hex(detected.payload) !== hex(payload)) throw notReadBack();
}

function encodersOf(audio: AudioServices) {
  if (!audio.encoders) throw new StepFailure("svc.jobs.step_unavailable", "The audio encoders are not installed in this deployment.");
  return audio.encoders;
}

/** 16-bit FLAC: decoded, marked, re-encoded losslessly by our encoder with its metadata kept; every sample checked. */
async function markFlac(audio: AudioServices, bytes: Uint8Array, payload: Uint8Array): Promise<Marked> {
  const encoders = encodersOf(audio);
  const info = readFlacHeader(bytes);
  if ("status" in info) throw new StepFailure("svc.jobs.decode_failed", info.message);
  // Our decoders give 16-bit samples: a deeper (or shallower) FLAC re-encoded from them would lose its own bits.
  if (info.bitsPerSample !== 16)
    throw new StepFailure(
      "svc.jobs.decode_failed",
      `The audio watermark is embedded into 16-bit FLAC only, not ${info.bitsPerSample}-bit.`,
    );
  // Without a stated length a skipped (damaged) frame could not be told from the end of the stream (admission
  // refuses such a file too: its duration is unknown).
  if (info.totalSamples === 0)
    throw new StepFailure("svc.jobs.decode_failed", "The FLAC stream does not state its length (STREAMINFO total samples 0).");
  const kept = flacKeptMetadata(bytes);
  if ("error" in kept) throw new StepFailure("svc.jobs.decode_failed", kept.error);
  checkLength(info.totalSamples, info.sampleRate, info.channels);
  let collector: PcmCollector | null = await decodeWhole(audio, bytes, "audio/flac", info.totalSamples);
  const { sampleRate, channels } = collector;
  const frames = collector.pcm().length / channels;
  // A damaged frame is skipped by the decoder: re-encoding without it would publish other audio than the upload's.
  if (frames !== info.totalSamples)
    throw new StepFailure(
      "svc.jobs.decode_failed",
      `The FLAC stream decodes to ${frames} of the ${info.totalSamples} samples its STREAMINFO states (damaged or cut short).`,
    );
  const marked = embed(audio.watermarker, collector.pcm(), sampleRate, channels, payload);
  collector = null;
  const encoded = encoders.flac({
    samples: marked.pcm,
    sampleRate,
    channels,
    bitsPerSample: 16,
    metadata: kept.blocks,
    prefix: kept.prefix,
  });
  if (encoded.status !== "encoded") throw new StepFailure("svc.jobs.watermark_failed", encoded.message);
  // Lossless, proven on every job: the output decodes to exactly the marked samples.
  let at = 0;
  let differs = false;
  const compare: AudioSink = {
    start: () => {},
    write: (pcm) => {
      for (let i = 0; i < pcm.length && !differs; i++) differs = pcm[i] !== marked.pcm[at + i];
      at += pcm.length;
    },
  };
  await readBack(audio, encoded.bytes, "audio/flac", payload, compare);
  if (differs || at !== marked.pcm.length)
    throw new StepFailure("svc.jobs.watermark_failed", "The re-encoded FLAC did not decode to the marked samples; nothing was published.");
  return { bytes: encoded.bytes, snrDb: marked.snr_db };
}

/** MP3 (layer III): decoded, marked, re-encoded by LAME at the source's bitrate, rate and channels; ID3 tags kept. */
async function markMp3(audio: AudioServices, bytes: Uint8Array, payload: Uint8Array): Promise<Marked> {
  const encoders = encodersOf(audio);
  const src = mp3Source(bytes);
  if ("error" in src) throw new StepFailure("svc.jobs.decode_failed", src.error);
  if (src.layer !== 3)
    throw new StepFailure(
      "svc.jobs.decode_failed",
      `The audio watermark is embedded into MP3 (layer III) only, not MPEG layer ${src.layer}.`,
    );
  let collector: PcmCollector | null = await decodeWhole(audio, bytes, "audio/mpeg", 0);
  const { sampleRate, channels } = collector;
  const marked = embed(audio.watermarker, collector.pcm(), sampleRate, channels, payload);
  collector = null;
  const encoded = await encoders.mp3({ pcm: marked.pcm, sampleRate, channels, kbps: src.kbps, prefix: src.id3v2, suffix: src.trailer });
  if (encoded.status !== "encoded") throw new StepFailure("svc.jobs.watermark_failed", encoded.message);
  await readBack(audio, encoded.bytes, "audio/mpeg", payload, null);
  return { bytes: encoded.bytes, snrDb: marked.snr_db };
}
