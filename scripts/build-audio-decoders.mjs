// Extracts the WebAssembly binaries of the npm audio decoders (mpg123-decoder, @wasm-audio-decoders/flac) and the MP3 encoder into
// wasm/build/<name>.wasm. The packages embed their wasm as a compressed string and compile it at run time, which
// workerd forbids ("Wasm code generation disallowed by embedder"); workerd code imports these files as modules and
// hands the compiled module to the package (src/media/codecs/audio). Run by `npm run build:wasm`; deterministic
// (the bytes are the package's own, inflated by the package's own inflater). Always inflates (a few ms; file times
// cannot tell a package upgrade reliably) and rewrites only outputs whose bytes changed.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const outDir = join(root, "wasm", "build");
mkdirSync(outDir, { recursive: true });

/** Output name → the package whose glue (src/EmscriptenWasm.js) carries the wasm string. */
const DECODERS = {
  mpg123: "mpg123-decoder",
  flac: "@wasm-audio-decoders/flac",
};

const packageDir = (name) => join(root, "node_modules", ...name.split("/"));
// The inflater is the packages' shared dependency; resolve it from the decoder package that depends on it.
const requireFrom = createRequire(join(packageDir("mpg123-decoder"), "package.json"));
const commonEntry = requireFrom.resolve("@wasm-audio-decoders/common");
const { WASMAudioDecoderCommon } = await import(pathToFileURL(commonEntry).href);

for (const [name, pkg] of Object.entries(DECODERS)) {
  const glue = join(packageDir(pkg), "src", "EmscriptenWasm.js");
  const out = join(outDir, `${name}.wasm`);
  // The glue defines its static `wasm` string when first constructed; constructing compiles nothing.
  const { default: EmscriptenWASM } = await import(pathToFileURL(glue).href);
  new WASMAudioDecoderCommon();
  new EmscriptenWASM(WASMAudioDecoderCommon);
  const bytes = await WASMAudioDecoderCommon.inflateDynEncodeString(EmscriptenWASM.wasm);
  if (!WebAssembly.validate(bytes)) throw new Error(`${pkg}: the inflated wasm does not validate`);
  if (existsSync(out) && Buffer.compare(readFileSync(out), bytes) === 0) continue;
  writeFileSync(out, bytes);
  console.error(`wasm: extracted ${name}.wasm from ${pkg} (${bytes.length} bytes)`);
}

// The MP3 encoder (wasm-media-encoders: LAME in wasm) ships its module as a file: copied as it is, for the same reason.
{
  const bytes = readFileSync(join(packageDir("wasm-media-encoders"), "wasm", "mp3.wasm"));
  if (!WebAssembly.validate(bytes)) throw new Error("wasm-media-encoders: wasm/mp3.wasm does not validate");
  const out = join(outDir, "lame.wasm");
  if (!existsSync(out) || Buffer.compare(readFileSync(out), bytes) !== 0) {
    writeFileSync(out, bytes);
    console.error(`wasm: copied lame.wasm from wasm-media-encoders (${bytes.length} bytes)`);
  }
}
