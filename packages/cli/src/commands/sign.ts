import { existsSync, openAsBlob, statSync } from "node:fs";
import { resolve } from "node:path";
import { type Download, type Job, type SvcClient, SvcError, unwrap } from "@svc/client";
import { stringFlag } from "../args.ts";
import type { Command, Context } from "../command.ts";
import { CliError, EXIT, UsageError } from "../exit.ts";
import { progressBar, safe } from "../output.ts";
import { clientOf, toCliError } from "../sdk.ts";
import { downloadInto } from "./delivery.ts";
import { jobLine, jobMark } from "./jobs.ts";
import { existingFile, jsonOut, mediaTypeOf } from "./shared.ts";

/**
 * The recipe checks of the sign request that need no asset (it exists, is available here, takes this media type),
 * made with one read of the recipe before anything is uploaded: a refusal would otherwise come only after the upload,
 * leaving an unpublished asset behind on every attempt. The messages, codes and exit class are the sign request's
 * own. What the read cannot tell (the key's signing profile, the file's inspected facts) is still the sign's to refuse.
 * A key that may not read recipes (no jobs:read) skips the check: the sign request decides, as before.
 */
async function checkRecipe(ctx: Context, svc: SvcClient, recipeId: string, mediaType: string | null): Promise<void> {
  const refuse = (code: string, message: string, e: SvcError | null, requestId: string | null) =>
    Object.assign(new CliError(EXIT.rejected, message, [`code: ${code}`, ...(requestId ? [`request id: ${requestId}`] : [])]), {
      status: e?.status ?? null,
      code,
      requestId,
    });
  let recipe: { available: boolean; unavailable_reason?: string | null; supported_media_types: readonly string[] };
  try {
    recipe = await unwrap(
      await svc.api.GET("/v1/recipes/{recipe_id}", { params: { path: { recipe_id: recipeId } }, signal: ctx.io.signal }),
    );
  } catch (e) {
    if (e instanceof SvcError && e.status === 403) return;
    if (e instanceof SvcError && e.status === 404)
      throw refuse("svc.sign.recipe_unknown", `No recipe ${recipeId} exists.`, e, e.request_id);
    // A malformed id is refused by the read as the sign request would refuse it (400, exit 5); anything else
    // (no key, unreachable, unavailable) is what the upload would have met first.
    throw toCliError(e, { baseUrl: ctx.config.baseUrl, aborted: ctx.io.signal.aborted });
  }
  if (!recipe.available)
    throw refuse(
      "svc.sign.recipe_unavailable",
      `${recipeId} is not available in this deployment (${recipe.unavailable_reason ?? "unavailable"}).`,
      null,
      null,
    );
  if (mediaType && !recipe.supported_media_types.includes(mediaType))
    throw refuse("svc.sign.media_type_not_supported", `${recipeId} does not accept ${mediaType} in this deployment.`, null, null);
}

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
  description: `Steps (with @svc/client): read the --recipe (one GET /v1/recipes/{id}: an unknown or unavailable recipe, or one that does not take the file's type, is refused with the sign request's message and exit 5 before anything is uploaded), hash the file (SHA-256), create an upload (single, or multipart above 16 MiB), PUT the bytes with exactly the returned headers (progress bar on a terminal), complete it, start the sign job, poll it (1 s doubling to 30 s, with jitter), then download the published file and check its SHA-256 and length (and the sidecar .c2pa for sidecar formats).
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
    // Found now rather than after the upload and the job: the download is written there (created if missing).
    if (!ctx.parsed.flags["no-download"] && existsSync(outDir) && !statSync(outDir).isDirectory())
      throw new UsageError(`--out must be a directory: ${outDir} is a file`);
    const svc = clientOf(ctx);
    // Only a type read from the extension is checked here: a --type the service may name otherwise is its to judge.
    if (recipeId) await checkRecipe(ctx, svc, recipeId, stringFlag(ctx.parsed, "type") ? null : mediaType);
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
