// The part of @ffmpeg/core's emscripten module (wasm/build/ffmpeg-core.mjs, made by scripts/build-video-decoder.mjs)
// that the video decoder uses. The glue is the package's own; these types describe it, they implement nothing.

/** A stream of emscripten's file system, as device callbacks receive it. */
export type FsStream = object;

/** Device callbacks (FS.registerDevice): our outputs are character devices the glue writes frames to. */
export interface FsDeviceOps {
  open?(stream: FsStream): void;
  close?(stream: FsStream): void;
  write(stream: FsStream, buffer: Int8Array, offset: number, length: number, position?: number): number;
  llseek?(stream: FsStream, offset: number, whence: number): number;
}

export interface FfmpegFs {
  writeFile(path: string, data: Uint8Array, options?: { canOwn?: boolean }): void;
  makedev(major: number, minor: number): number;
  registerDevice(dev: number, ops: FsDeviceOps): void;
  mkdev(path: string, dev: number): void;
  ErrnoError: new (errno: number) => Error;
}

/** The module as `createFFmpegCore` resolves it. `exec`/`ffprobe` run the CLI's main synchronously, return its exit code. */
export interface FfmpegCore {
  FS: FfmpegFs;
  exec(...args: string[]): number;
  ffprobe(...args: string[]): number;
  setLogger(logger: (entry: { type: "stdout" | "stderr"; message: string }) => void): void;
  /** The wasm memory (it grows, never shrinks). */
  HEAPU8: Uint8Array;
  /** Set by our build's glue rewrite when a heap growth past `maxHeapBytes` was refused. */
  heapRefused?: boolean;
}

/** The Module options we pass: the wasm instantiated from a compiled module (workerd cannot compile bytes). */
export interface FfmpegCoreOptions {
  /** Heap ceiling (bytes, multiple of 64 KiB): growth past it fails as out-of-memory inside FFmpeg. */
  maxHeapBytes: number;
  instantiateWasm(
    imports: WebAssembly.Imports,
    receive: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void,
  ): Record<string, never>;
}

export type CreateFfmpegCore = (options: FfmpegCoreOptions) => Promise<FfmpegCore>;
