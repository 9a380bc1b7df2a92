import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { uploadFile } from "../api.ts";
import { stringFlag } from "../args.ts";
import type { Command } from "../command.ts";
import { CliError, EXIT } from "../exit.ts";
import { json, progressBar } from "../output.ts";
import { downloadAsset } from "./delivery.ts";
import { apiOf, jobLine, waitForJob } from "./jobs.ts";
import { existingFile, mediaTypeOf } from "./shared.ts";

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
        "Express mode: watermark, fingerprints and manifest in one request for JPEG/PNG/WebP/TIFF/AVIF with a watermark_then_sign recipe.",
    },
    {
      name: "out",
      short: "o",
      type: "string",
      placeholder: "DIR",
      description: "Where to write the signed file (default: the current directory).",
    },
    { name: "type", type: "string", placeholder: "MEDIA_TYPE", description: "The media type when the extension does not tell it." },
    { name: "no-download", type: "boolean", description: "Stop when the job completes; do not download." },
  ],
  positionals: [{ name: "FILE", required: true, description: "The file to sign." }],
  description: `Steps: create an upload (SHA-256 of the file), PUT the bytes (progress bar on a terminal), complete it, start the sign job, poll it (1 s doubling to 30 s), then download the published file and check its SHA-256 and length (and the sidecar .c2pa for sidecar formats).
The output is written as <asset id>.<ext> in --out. Exit 9 when the job fails or is rejected (its error_code is printed), 8 when the download does not match its hash.`,
  examples: [
    "svc sign photo.jpg --recipe rcp_system_sign_only",
    "svc sign photo.jpg --recipe rcp_system_watermark_then_sign --express --out signed/",
    "svc sign song.mp3 -r rcp_system_watermark_then_sign --json",
  ],
  async run(ctx) {
    const file = existingFile(resolve(ctx.io.cwd, ctx.parsed.positionals[0]!));
    const mediaType = mediaTypeOf(file.path, stringFlag(ctx.parsed, "type"));
    const recipe = stringFlag(ctx.parsed, "recipe");
    const express = ctx.parsed.flags.express === true;
    const outDir = resolve(ctx.io.cwd, stringFlag(ctx.parsed, "out") ?? ".");
    const api = apiOf(ctx);
    const bytes = new Uint8Array(readFileSync(file.path));
    const bar = progressBar(ctx.io.stderr, `uploading ${file.name}`, bytes.length);
    const uploaded = await uploadFile(api, bytes, mediaType, file.name, (done) => bar.update(done), ctx.io.signal);
    bar.finish();
    const started = await api.request<Record<string, any>>("POST", "/v1/sign", {
      body: { asset_id: uploaded.asset_id, ...(recipe ? { recipe_id: recipe } : {}), ...(express ? { mode: "express" } : {}) },
      idempotent: true,
    });
    const status = ctx.json ? () => {} : (line: string) => ctx.err(line);
    status(`asset ${uploaded.asset_id}, job ${started.job_id}`);
    const job = await waitForJob(ctx, started.job_id, (j) => status(jobLine(ctx, j)), started);
    if (job.state !== "completed") {
      if (ctx.json) ctx.out(json({ job }));
      throw new CliError(
        EXIT.jobFailed,
        `job ${job.job_id} ${job.state}${job.error_code ? `: ${job.error_code}` : ""}`,
        job.error_message ? [job.error_message] : [],
      );
    }
    const saved = ctx.parsed.flags["no-download"] ? null : await downloadAsset(ctx, job.asset_id, outDir, started.download ?? null);
    if (ctx.json) {
      const { download: _omit, ...jobOnly } = { ...job, download: undefined };
      ctx.out(json({ job: jobOnly, file: saved }));
      return EXIT.ok;
    }
    if (saved) {
      ctx.out(`${saved.path}\n${saved.sidecar ? `${saved.sidecar.path}\n` : ""}`);
      ctx.err(ctx.paintErr("green", `signed; sha256 ${saved.sha256} checked (${saved.byte_length} bytes)`));
    }
    if (job.result) ctx.err(ctx.paintErr("dim", `receipt ${job.result.receipt_id}, verification ${job.result.verification_id}`));
    return EXIT.ok;
  },
};
