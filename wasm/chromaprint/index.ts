// Chromaprint kernel: our own implementation of the Chromaprint audio fingerprint (algorithm TEST2, id 1, the
// default of libchromaprint and fpcalc), bit-exact with upstream on its test vectors.
//
// Pipeline, one stage per file: int16 PCM -> mono (input.ts) -> 11025 Hz (resample.ts, integer polyphase filter)
// -> frames of 4096 every 1365 samples, Hamming window, power spectrum (spectrum.ts) -> 12 chroma bands, 5-tap
// smoothing over time, unit norm -> rolling integral image -> 16 classifiers of 2 bits each = one uint32 per frame
// (classify.ts).
//
// Protocol (driven by src/media/fingerprint/audio/chromaprinter.ts): cpStart(rate, channels) lays out the memory
// and returns the staging address (0 on bad parameters); JS copies interleaved int16 samples there, at most
// STAGE_SAMPLES at a time, and calls cpPush(count); cpFinish() flushes the tail. Push and finish return how many
// sub-fingerprints they produced, left at CP_OUT (at most OUT_CAP per call), which JS copies out before the next
// call. Memory grows only inside cpStart (the resampler's filter bank), so JS refreshes its views after it.

export { CP_OUT, OUT_CAP, STAGE_SAMPLES } from "./state";
export { cpFinish, cpPush, cpStart } from "./input";
