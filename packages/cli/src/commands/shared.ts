import { randomBytes } from "node:crypto";
import { closeSync, existsSync, mkdirSync, openSync, renameSync, rmSync, statSync, writeSync } from "node:fs";
import { basename, extname, join } from "node:path";
import type { FlagSpec } from "../args.ts";
import type { Context } from "../command.ts";
import { CliError, EXIT, UsageError } from "../exit.ts";

export const TERMINAL_JOB_STATES = new Set(["completed", "failed", "rejected", "canceled", "expired"]);

export const PAGE_FLAGS: readonly FlagSpec[] = [
  { name: "limit", type: "string", placeholder: "N", description: "Items per page (1 to 100)." },
  { name: "cursor", type: "string", placeholder: "CURSOR", description: "Continue from a previous page's next_cursor." },
];

/** Ids as SPEC patterns them: a typo is a usage error here rather than a 404 or 422 from the service. */
export function checkId(kind: "job" | "asset" | "api key" | "endpoint", id: string): string {
  const pattern = {
    job: /^job_[a-z2-7]{16}$/,
    asset: /^ast_[a-z2-7]{16}$/,
    "api key": /^key_[a-z2-7]{16}$/,
    endpoint: /^whe_[a-z2-7]{16}$/,
  }[kind];
  const named = { job: "a job", asset: "an asset", "api key": "an API key", endpoint: "an endpoint" }[kind];
  if (!pattern.test(id)) throw new UsageError(`${JSON.stringify(id)} is not ${named} id (${pattern.source})`);
  return id;
}

/** A local file that must exist: a missing one is exit 4, a directory a usage error. */
export function existingFile(path: string): { path: string; size: number; name: string } {
  if (!existsSync(path)) throw new CliError(EXIT.notFound, `no such file: ${path}`);
  const st = statSync(path);
  if (!st.isFile()) throw new UsageError(`not a file: ${path}`);
  return { path, size: st.size, name: basename(path) };
}

/**
 * Writes bytes under a temporary name first, so an interrupted write never leaves a half file under the real name.
 * The temporary name is random and created exclusively (O_EXCL: a planted file or symlink there is an error, never
 * followed), readable by the owner only until the rename, since --out may be a directory other users can write.
 */
export function writeFileAtomic(dir: string, name: string, bytes: Uint8Array): string {
  if (name !== basename(name) || name === "." || name === "..")
    throw new CliError(EXIT.failure, `refusing file name ${JSON.stringify(name)}`);
  mkdirSync(dir, { recursive: true });
  const target = join(dir, name);
  const tmp = `${target}.part-${randomBytes(12).toString("hex")}`;
  const fd = openSync(tmp, "wx", 0o600);
  try {
    let done = 0;
    while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done);
  } catch (e) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw e;
  }
  closeSync(fd);
  renameSync(tmp, target);
  return target;
}

const MEDIA_TYPES: Record<string, string> = {
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".png": "image/png",
  ".webp": "image/webp",
  ".tif": "image/tiff",
  ".tiff": "image/tiff",
  ".avif": "image/avif",
  ".gif": "image/gif",
  ".heic": "image/heic",
  ".heif": "image/heif",
  ".jxl": "image/jxl",
  ".svg": "image/svg+xml",
  ".dng": "image/x-adobe-dng",
  ".mp3": "audio/mpeg",
  ".wav": "audio/wav",
  ".flac": "audio/flac",
  ".m4a": "audio/mp4",
  ".mp4": "video/mp4",
  ".mov": "video/quicktime",
  ".avi": "video/x-msvideo",
  ".pdf": "application/pdf",
  ".txt": "text/plain",
  ".html": "text/html",
  ".xml": "application/xml",
  ".epub": "application/epub+zip",
  ".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  ".odt": "application/vnd.oasis.opendocument.text",
  ".otf": "font/otf",
  ".onnx": "application/onnx",
};

/** The media type of a file from its extension, or the --type flag; unknown is a usage error naming the flag. */
export function mediaTypeOf(path: string, override: string | undefined): string {
  if (override) {
    if (!/^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/i.test(override) || override.length > 127)
      throw new UsageError(`--type ${JSON.stringify(override)} is not a media type`);
    return override.toLowerCase();
  }
  const type = MEDIA_TYPES[extname(path).toLowerCase()];
  if (!type) throw new UsageError(`cannot tell the media type of ${basename(path)} from its extension; pass --type TYPE/SUBTYPE`);
  return type;
}

/** "2026-11-28T06:00:00.000Z" → "2026-11-28 06:00:00" (UTC), "-" for null. */
export function when(ts: unknown): string {
  if (typeof ts !== "string") return "-";
  return ts
    .replace("T", " ")
    .replace(/\.\d+Z$/, "Z")
    .replace(/Z$/, "");
}

export function printNextCursor(ctx: Context, next: unknown, command: string): void {
  if (typeof next === "string" && next) ctx.err(ctx.paintErr("dim", `more: ${command} --cursor ${next}`));
}

/** --json output of a value; the command's exit code (0). */
export function jsonOut(ctx: Context, value: unknown): number {
  ctx.out(`${JSON.stringify(value, null, 2)}\n`);
  return EXIT.ok;
}
