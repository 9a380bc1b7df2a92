// Media the soak sends (#22): real photographs and audio from test/fixtures, a stripped copy of a signed JPEG (what a
// platform that drops metadata publishes), and a longer WAV made by repeating a real recording's samples, large
// enough for a two-part multipart upload.
import { readFileSync } from "node:fs";
import { join } from "node:path";

const FIXTURES = join(import.meta.dirname, "..", "..", "test", "fixtures");
const read = (path) => new Uint8Array(readFileSync(join(FIXTURES, path)));

/**
 * What the soak signs: real photographs (two full-size; four 256 px LabelMe scenes, too small to carry the watermark,
 * signed only) and real audio (the 3 s WAV and the 64 kbit/s MP3 are signed only: the watermark needs 9 s, and its
 * read-back check refuses the 64 kbit/s re-encode).
 */
export function signingPool() {
  const labelme = ["q0003", "q0122", "q0291", "q0746"].map((q) => ({
    name: `labelme-${q}.jpg`,
    type: "image/jpeg",
    bytes: read(`fp-vectors/pdq/images/reg-test-input/labelme-subset/${q}.jpg`),
  }));
  const photos = [
    { name: "photo-aitzgorri-900x675.jpg", type: "image/jpeg", bytes: read("media/photo-aitzgorri-900x675.jpg"), full: true },
    { name: "photo-bridge.jpg", type: "image/jpeg", bytes: read("media/photo-bridge.jpg"), full: true },
  ];
  const mp3 = { name: "speech-music-128k.mp3", type: "audio/mpeg", bytes: read("audio/speech-music-128k.mp3") };
  return {
    photos: [...photos, ...labelme],
    markablePhotos: photos,
    audio: [
      mp3,
      { name: "speech-music-64k.mp3", type: "audio/mpeg", bytes: read("audio/speech-music-64k.mp3") },
      { name: "speech-music.wav", type: "audio/wav", bytes: read("audio/speech-music.wav") },
    ],
    markableAudio: [mp3],
  };
}

/**
 * Images the soak never signs: two LabelMe photographs and files signed elsewhere by the C2PA reference tools (not
 * our trust anchor). A verification of one must not claim our provenance.
 */
export function unrelatedPool() {
  return [
    { name: "labelme-q1050.jpg", bytes: read("fp-vectors/pdq/images/reg-test-input/labelme-subset/q1050.jpg") },
    { name: "labelme-q2821.jpg", bytes: read("fp-vectors/pdq/images/reg-test-input/labelme-subset/q2821.jpg") },
    { name: "c2pa adobe-20220124-CA.jpg", bytes: read("c2pa/adobe-20220124-CA.jpg") },
    { name: "c2pa cloud.jpg", bytes: read("c2pa/cloud.jpg") },
  ];
}

/**
 * A JPEG without its metadata: every APPn segment but APP0 (JFIF) and APP14 (Adobe: it names the colour transform)
 * dropped, so the C2PA store (APP11), XMP and EXIF are gone and the pixels are unchanged. Null if not a JPEG.
 */
export function stripJpeg(bytes) {
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) return null;
  const kept = [bytes.subarray(0, 2)];
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1];
    if (marker === 0xda) break; // start of scan: the rest is entropy-coded data and what follows it
    const length = (bytes[at + 2] << 8) | bytes[at + 3];
    const isApp = marker >= 0xe0 && marker <= 0xef;
    if (!isApp || marker === 0xe0 || marker === 0xee) kept.push(bytes.subarray(at, at + 2 + length));
    at += 2 + length;
  }
  kept.push(bytes.subarray(at));
  const out = new Uint8Array(kept.reduce((n, part) => n + part.length, 0));
  let n = 0;
  for (const part of kept) {
    out.set(part, n);
    n += part.length;
  }
  return out;
}

/** The real WAV's samples repeated until the file holds at least `minBytes` (a well-formed RIFF/WAVE file). */
export function longWav(minBytes) {
  const wav = read("audio/speech-music.wav");
  const view = new DataView(wav.buffer, wav.byteOffset, wav.byteLength);
  let fmt = null;
  let data = null;
  for (let at = 12; at + 8 <= wav.length; ) {
    const id = String.fromCharCode(...wav.subarray(at, at + 4));
    const size = view.getUint32(at + 4, true);
    if (id === "fmt ") fmt = wav.subarray(at, at + 8 + size);
    if (id === "data") data = wav.subarray(at + 8, at + 8 + size);
    at += 8 + size + (size & 1);
  }
  if (!fmt || !data) throw new Error("speech-music.wav: no fmt or data chunk");
  const repeats = Math.ceil(minBytes / data.length);
  const dataBytes = data.length * repeats;
  const out = new Uint8Array(12 + fmt.length + 8 + dataBytes);
  const o = new DataView(out.buffer);
  out.set([0x52, 0x49, 0x46, 0x46], 0); // RIFF
  o.setUint32(4, out.length - 8, true);
  out.set([0x57, 0x41, 0x56, 0x45], 8); // WAVE
  out.set(fmt, 12);
  const dataAt = 12 + fmt.length;
  out.set([0x64, 0x61, 0x74, 0x61], dataAt); // data
  o.setUint32(dataAt + 4, dataBytes, true);
  for (let r = 0; r < repeats; r++) out.set(data, dataAt + 8 + r * data.length);
  return out;
}
