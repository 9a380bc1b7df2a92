// Copies FFmpeg's wasm build (@ffmpeg/core, single-thread, GPL-2.0-or-later) from node_modules into wasm/build for
// the media Worker's video decoder (src/media/codecs/video). Nothing of it is committed: the wasm is copied as is and
// the esm glue gets four small, checked rewrites so it runs in workerd:
//  - the glue reads `self.location.href` when it believes it runs in a web worker; workerd has no `self.location`;
//  - `import.meta.url` only served to locate the wasm file, which we never fetch (the module is handed in through
//    emscripten's `instantiateWasm` hook, since workerd cannot compile wasm from bytes);
//  - the heap ceiling is a constant 2 GiB; we read it from the Module options (`maxHeapBytes`) so a decode that
//    needs more memory than we allow fails inside FFmpeg (malloc returns NULL, FFmpeg reports ENOMEM) instead of
//    growing the isolate past its 128 MB; a refused growth sets `Module.heapRefused`, so the decoder can tell
//    "out of memory" from a corrupt stream (FFmpeg often reports the failed allocation as invalid data).
// Run by `npm run build:wasm`; rewrites an output only when its bytes change.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const outDir = join(root, "wasm", "build");
const pkgDir = join(root, "node_modules", "@ffmpeg", "core");
mkdirSync(outDir, { recursive: true });

const { version } = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8"));
if (version !== "0.12.10") throw new Error(`@ffmpeg/core ${version}: the glue rewrites below were checked on 0.12.10`);

/** [what the glue says, what we make it say]: each must occur exactly once. */
const REWRITES = [
  ["var _scriptDir = import.meta.url;", "var _scriptDir = undefined;"],
  ["scriptDirectory=self.location.href", 'scriptDirectory=typeof self!="undefined"&&self.location?self.location.href:""'],
  ["function getHeapMax(){return 2147483648}", 'function getHeapMax(){return Module["maxHeapBytes"]||2147483648}'],
  ["if(requestedSize>maxHeapSize){return false}", 'if(requestedSize>maxHeapSize){Module["heapRefused"]=true;return false}'],
];

let glue = readFileSync(join(pkgDir, "dist", "esm", "ffmpeg-core.js"), "utf8");
for (const [from, to] of REWRITES) {
  const count = glue.split(from).length - 1;
  if (count !== 1) throw new Error(`@ffmpeg/core glue: expected one "${from}", found ${count}`);
  glue = glue.replace(from, to);
}

const writeIfChanged = (name, bytes) => {
  const out = join(outDir, name);
  if (existsSync(out) && Buffer.compare(readFileSync(out), bytes) === 0) return;
  writeFileSync(out, bytes);
  console.error(`wasm: wrote ${name} from @ffmpeg/core ${version} (${bytes.length} bytes)`);
};
writeIfChanged("ffmpeg-core.mjs", Buffer.from(glue));
writeIfChanged("ffmpeg-core.wasm", readFileSync(join(pkgDir, "dist", "esm", "ffmpeg-core.wasm")));
