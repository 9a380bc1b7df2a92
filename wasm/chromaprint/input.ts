// Input stage: interleaved int16 -> mono -> 11025 Hz, with libchromaprint's buffering, which the output depends on
// at the edges: mono samples gather in a 32768-sample buffer; when it is full it is resampled into at most 32768
// output samples and the unconsumed input moves to its front; at the end one last resampling of what is left (the
// tail that no longer fills a filter window is dropped). Channel mixing is integer: (l + r) / 2 truncated for
// stereo, the int32 sum divided by the channel count otherwise. A frame split across two pushes is kept.

import { consumed, resample, resampleInit } from "./resample";
import { spectrumFeed, spectrumReset } from "./spectrum";
import { outCountNow, outReset, STAGE, STAGE_SAMPLES } from "./state";

/** The rate every fingerprint is computed at. */
export const TARGET_RATE: i32 = 11025;
const MIN_RATE: i32 = 1000;
/** Highest accepted input rate (its filter bank is ~360 KB; the bank grows with the rate). */
const MAX_RATE: i32 = 384000;
/** Most channels accepted (the kernel keeps one partial frame of up to this many samples between pushes). */
export const MAX_CHANNELS: i32 = 64;
const BUF_SAMPLES: i32 = 32768;

const BUF: usize = memory.data(BUF_SAMPLES * 2, 16);
const RESAMPLED: usize = memory.data(BUF_SAMPLES * 2, 16);
const LEFTOVER: usize = memory.data(MAX_CHANNELS * 2, 16);

let channels: i32 = 0;
let resampling: bool = false;
let started: bool = false;
let bufFill: i32 = 0;
let leftover: i32 = 0;

/**
 * Starts a fingerprint of `rate` Hz audio with `channels` interleaved channels. Returns the staging address, or 0
 * when the parameters are out of range (rate must be an integer above 1000 Hz as upstream requires, and at most
 * 384 kHz here; 1..64 channels) or memory cannot grow.
 */
export function cpStart(rate: i32, channelCount: i32): usize {
  started = false;
  if (rate <= MIN_RATE || rate > MAX_RATE || channelCount < 1 || channelCount > MAX_CHANNELS) return 0;
  resampling = rate != TARGET_RATE;
  if (resampling && !resampleInit(TARGET_RATE, rate)) return 0;
  channels = channelCount;
  bufFill = 0;
  leftover = 0;
  spectrumReset();
  started = true;
  return STAGE;
}

/** Mixes `frames` whole frames at `src` into the buffer (which has room for them). */
function mix(src: usize, frames: i32): void {
  const out = BUF + (<usize>bufFill << 1);
  if (channels == 1) {
    memory.copy(out, src, <usize>frames << 1);
  } else if (channels == 2) {
    for (let i = 0; i < frames; i++) {
      const p = src + (<usize>i << 2);
      store<i16>(out + (<usize>i << 1), <i16>((<i32>load<i16>(p) + <i32>load<i16>(p, 2)) / 2));
    }
  } else {
    for (let i = 0; i < frames; i++) {
      const p = src + <usize>(i * channels) * 2;
      let sum: i32 = 0;
      for (let c = 0; c < channels; c++) sum += <i32>load<i16>(p + (<usize>c << 1));
      store<i16>(out + (<usize>i << 1), <i16>(sum / channels));
    }
  }
  bufFill += frames;
}

/** Hands the buffer on: resampled (keeping what the resampler did not use up) or as it is at 11025 Hz. */
function flushBuffer(): void {
  if (resampling) {
    const n = resample(RESAMPLED, BUF, bufFill, BUF_SAMPLES);
    spectrumFeed(RESAMPLED, n);
    let remaining = bufFill - consumed;
    if (remaining > 0) memory.copy(BUF, BUF + (<usize>consumed << 1), <usize>remaining << 1);
    else remaining = 0;
    bufFill = remaining;
  } else {
    spectrumFeed(BUF, bufFill);
    bufFill = 0;
  }
}

/** Feeds `frames` whole frames at `src`. */
function consumeAligned(src: usize, frames: i32): void {
  let p = src;
  let left = frames;
  while (left > 0) {
    const n = min(left, BUF_SAMPLES - bufFill);
    mix(p, n);
    p += <usize>(n * channels) << 1;
    left -= n;
    if (bufFill == BUF_SAMPLES) {
      flushBuffer();
      // Upstream gives up on the rest of the call if resampling freed nothing (cannot happen with these filters).
      if (bufFill == BUF_SAMPLES) return;
    }
  }
}

/** Feeds `count` interleaved samples from the staging area; returns the number of sub-fingerprints produced. */
export function cpPush(count: i32): i32 {
  outReset();
  if (!started || count <= 0) return 0;
  let p = STAGE;
  let n = min(count, STAGE_SAMPLES);
  if (leftover > 0) {
    while (n > 0 && leftover < channels) {
      store<i16>(LEFTOVER + (<usize>leftover << 1), load<i16>(p));
      leftover++;
      p += 2;
      n--;
    }
    if (leftover < channels) return outCountNow();
    consumeAligned(LEFTOVER, 1);
    leftover = 0;
  }
  const rest = n % channels;
  consumeAligned(p, (n - rest) / channels);
  if (rest > 0) {
    memory.copy(LEFTOVER, p + (<usize>(n - rest) << 1), <usize>rest << 1);
    leftover = rest;
  }
  return outCountNow();
}

/** Ends the input: resamples what is buffered. Returns the number of sub-fingerprints produced. */
export function cpFinish(): i32 {
  outReset();
  if (!started) return 0;
  if (bufFill > 0) flushBuffer();
  started = false;
  return outCountNow();
}
