import { openAsBlob } from "node:fs";
import { resolve } from "node:path";
import type { Download, Job } from "@svc/client";
import { stringFlag } from "../args.ts";
import type { Command } from "../command.ts";
import { EXIT, UsageError } from "../exit.ts";
import { progressBar, safe } from "../output.ts";
import { clientOf } from "../sdk.ts";
import { downloadInto } from "./delivery.ts";
import { jobLine, jobMark } from "./jobs.ts";
import { existingFile, jsonOut, mediaTypeOf } from "./shared.ts";

export const signCommand: Command = {
  path: ["sign"],
  summary: "Upload a file, sign it, wait, and download the signed result (hash-checked)",
  flags: [
    {
      name: "recipe",
      short: "r",
      type: "string",
      placeholder: "RECIPE_ID",
      description: "The recipe, e.g. rcp_system_sign_only or rcp_system_watermark_then_sign (default: the key's signing profile).",
    },
    {
      name: "express",
      type: "boolean",
      description:
        "Express mode: watermark, fingerprints and manifest in one request (JPEG, PNG, WebP, TIFF, AVIF with a watermark recipe).",
    },
    {
      name: "out",
      short: "o",
      type: "string",
      placeholder: "DIR",
      description: "Where to write the signed file (default: the current directory).",
    },
    { name: "type", type: "string", placeholder: "MEDIA_TYPE", description: "The media type, when the file's extension does not tell it." },
    { name: "no-download", type: "boolean", description: "Stop when the job completes; do not download." },
    {
      name: "timeout",
      type: "string",
      placeholder: "SECONDS",
      description: "Stop waiting after this long (exit 6; the job goes on). Default: no limit.",
    },
  ],
  positionals: [{ name: "FILE", required: true, description: "The file to sign." }],
  description: `Steps (with @svc/client): hash the file (SHA-256), create an upload (single, or multipart above 16 MiB), PUT the bytes with exactly the returned headers (progress bar on a terminal), complete it, start the sign job, poll it (1 s doubling to 30 s, with jitter), then download the published file and check its SHA-256 and length (and the sidecar .c2pa for sidecar formats).
The signed file is written as <asset id>.<ext> in --out and its path printed on stdout. Exit 9 when the job fails or is rejected (its error_code is printed), 8 when the download does not match its published hash.`,
  examples: [
    "svc sign photo.jpg --recipe rcp_system_sign_only",
    "svc sign photo.jpg --recipe rcp_system_express_watermark_then_sign --express --out signed/",
    "svc sign song.mp3 -r rcp_system_watermark_then_sign --json",
  ],
  async run(ctx) {
    const file = existingFile(resolve(ctx.io.cwd, ctx.parsed.positionals[0]!));
    const mediaType = mediaTypeOf(file.path, stringFlag(ctx.parsed, "type"));
    const recipeId = stringFlag(ctx.parsed, "recipe");
    const timeout = stringFlag(ctx.parsed, "timeout");
    const timeoutMs = timeout === undefined ? undefined : Number(timeout) * 1000;
    if (timeoutMs !== undefined && !(timeoutMs > 0)) throw new UsageError("--timeout must be a positive number of seconds");
    const outDir = resolve(ctx.io.cwd, stringFlag(ctx.parsed, "out") ?? ".");
    const svc = clientOf(ctx);
    const status = (line: string) => {
      if (!ctx.json) ctx.err(line);
    };

    // A file-backed Blob: hashed and sent in slices, never read whole (multipart parts are 8 MiB).
    const blob = await openAsBlob(file.path, { type: mediaType });
    // Bars only on a terminal (progressBar checks), and never with --json.
    const barStream = ctx.json ? { write: () => undefined } : ctx.io.stderr;
    const hashing = progressBar(barStream, `hashing   ${file.name}`, file.size);
    const sending = progressBar(barStream, `uploading ${file.name}`, file.size);
    let phase: "hash" | "upload" = "hash";
    const uploaded = await svc.upload(blob, {
      mediaType,
      filename: file.name,
      signal: ctx.io.signal,
      onProgress: (p) => {
        if (p.phase === "upload" && phase === "hash") {
          hashing.finish();
          phase = "upload";
        }
        (p.phase === "hash" ? hashing : sending).update(p.loaded);
      },
    });
    sending.finish();
    status(`uploaded ${file.name} as ${safe(uploaded.asset_id)}`);

    let seen = "";
    const { job, download } = await svc.signAndWait({
      assetId: uploaded.asset_id,
      ...(recipeId ? { recipeId } : {}),
      ...(ctx.parsed.flags.express ? { mode: "express" as const } : {}),
      signal: ctx.io.signal,
      ...(timeoutMs ? { timeoutMs } : {}),
      onUpdate: (j: Job) => {
        if (jobMark(j) === seen) return;
        seen = jobMark(j);
        status(jobLine(ctx, j, ctx.paintErr));
      },
    });
    const saved = ctx.parsed.flags["no-download"] ? null : await downloadInto(ctx, (download as Download | null) ?? job.asset_id, outDir);
    if (ctx.json) return jsonOut(ctx, { job, file: saved });
    if (saved) {
      ctx.out(`${saved.path}\n${saved.sidecar ? `${saved.sidecar.path}\n` : ""}`);
      status(ctx.paintErr("green", `signed: ${saved.byte_length} bytes, sha256 ${saved.sha256} (checked)`));
    }
    if (job.result) status(ctx.paintErr("dim", `receipt ${safe(job.result.receipt_id)}, verification ${safe(job.result.verification_id)}`));
    return EXIT.ok;
  },
};
