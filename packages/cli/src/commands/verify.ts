import { existsSync, openAsBlob, statSync } from "node:fs";
import { resolve } from "node:path";
import type { VerificationResult } from "@svc/client";
import { stringFlag } from "../args.ts";
import type { Command, Context } from "../command.ts";
import { EXIT } from "../exit.ts";
import { type Style, safe } from "../output.ts";
import { clientOf } from "../sdk.ts";
import { existingFile, jsonOut } from "./shared.ts";

type Tone = "good" | "warn" | "bad" | "info" | "neutral";

/** A headline per status of the closed vocabulary; the explanation under it is the result's own user_explanation. */
const HEADLINES: Record<string, [string, Tone]> = {
  verified_manifest_and_watermark_match: ["Verified: Content Credentials and watermark agree", "good"],
  verified_manifest_and_fingerprint_match: ["Verified: Content Credentials and fingerprint agree", "good"],
  verified_manifest: ["Verified Content Credentials", "good"],
  conflicting_provenance: ["Conflicting provenance", "warn"],
  valid_manifest_untrusted_signer: ["Intact, but the signer is not trusted", "warn"],
  signer_revoked: ["The signer's certificate was revoked", "bad"],
  signer_certificate_expired: ["The signer's certificate had expired", "bad"],
  manifest_tampered: ["The credentials were tampered with", "bad"],
  asset_tampered: ["Changed after signing", "bad"],
  ingredient_invalid: ["Signed, but its history does not check out", "warn"],
  unsupported_manifest: ["Credentials in a form that cannot be checked", "neutral"],
  remote_manifest_unavailable: ["Online credentials not retrieved", "neutral"],
  watermark_only: ["Original found through its invisible watermark", "info"],
  fingerprint_match_only: ["Original found through a content match", "info"],
  durable_credential_unresolved: ["Watermark found, origin unknown", "neutral"],
  no_provenance_found: ["No provenance found", "neutral"],
};
const ASSET_ID = /^ast_[a-z2-7]{16}$/;
const URL_TARGET = /^https?:\/\//i;
const TONE_STYLE: Record<Tone, Style> = { good: "green", warn: "yellow", bad: "red", info: "cyan", neutral: "bold" };
export function printVerdict(ctx: Context, r: VerificationResult): void {
  // Every string below but our own headlines comes from the service, often from the file's signer: safe() keeps
  // control characters and escape sequences from reaching the terminal.
  const [title, tone] = HEADLINES[r.status] ?? [safe(r.status), "neutral" as Tone];
  const confidence = typeof r.confidence === "number" ? ` (confidence ${Math.round(r.confidence * 100)} %)` : "";
  const lines = [
    `${ctx.paint(TONE_STYLE[tone], ctx.paint("bold", title))}${confidence}`,
    ctx.paint("dim", safe(r.status)),
    "",
    safe(r.user_explanation),
  ];
  if (r.claims && Object.keys(r.claims).length) {
    const c = r.claims;
    const facts = [
      c.origin && `origin: ${safe(c.origin)}`,
      c.generator && `made with: ${safe(c.generator)}`,
      c.ai_generated === true && "declared AI-generated",
      c.ai_assisted === true && "declared AI-assisted",
      c.created_at && `signed: ${safe(c.created_at)}`,
    ].filter(Boolean);
    if (facts.length) lines.push("", ...facts.map((f) => `  ${f}`));
  }
  if (r.proves?.length) lines.push("", "What this shows:", ...r.proves.map((p: string) => `  ${ctx.paint("green", "+")} ${safe(p)}`));
  if (r.does_not_prove?.length)
    lines.push("", "What it does not show:", ...r.does_not_prove.map((p: string) => `  ${ctx.paint("dim", "-")} ${safe(p)}`));
  if (r.warnings?.length) lines.push("", ...r.warnings.map((w) => `${ctx.paint("yellow", "warning:")} ${safe(w)}`));
  ctx.out(`${lines.join("\n")}\n`);
}

export const verifyCommand: Command = {
  path: ["verify"],
  summary: "Verify a file, a URL or one of your assets, and say what it proves",
  flags: [
    {
      name: "manifest",
      type: "string",
      placeholder: "FILE",
      description: "The sidecar .c2pa manifest of FILE, for sidecar formats (default: FILE.c2pa when it exists, as svc sign writes it).",
    },
    { name: "public", type: "boolean", description: "Use the public variant (no API key sent; 10 requests a minute per address)." },
  ],
  positionals: [
    {
      name: "FILE|URL|ASSET_ID",
      required: true,
      description: "A local file, an http(s) URL (fetched here, at most 25 MiB), or ast_… for your published asset.",
    },
  ],
  description:
    "Prints the verdict in plain language: a headline, the explanation, what the evidence proves and does not prove. --json prints the service's verification result as is (status, confidence, signals, claims, matches, warnings, explanations). The exit code is 0 whatever the verdict: read it from the output. Without an API key (or with --public) the public variant is used.",
  examples: [
    "svc verify signed/ast_abcdefghij234567.jpg",
    "svc verify https://example.com/photo.jpg --json",
    "svc verify ast_abcdefghij234567",
  ],
  async run(ctx) {
    const target = ctx.parsed.positionals[0]!;
    const svc = clientOf(ctx, ctx.parsed.flags.public ? "none" : "optional");
    let manifestPath = stringFlag(ctx.parsed, "manifest");
    // `svc sign` writes a sidecar format's manifest beside the file as FILE.c2pa: verifying the file alone would
    // read "no provenance found" for a file just signed, so the sidecar beside it is sent, and said so.
    const beside = resolve(ctx.io.cwd, `${target}.c2pa`);
    if (!manifestPath && !ASSET_ID.test(target) && !URL_TARGET.test(target) && existsSync(beside) && statSync(beside).isFile()) {
      manifestPath = beside;
      ctx.err(`using the sidecar manifest beside it: ${safe(`${target}.c2pa`)}`);
    }
    const manifest = manifestPath ? await openAsBlob(existingFile(resolve(ctx.io.cwd, manifestPath)).path) : undefined;
    const options = { signal: ctx.io.signal, ...(manifest ? { manifest } : {}) };
    let result: VerificationResult;
    if (ASSET_ID.test(target)) result = await svc.verify({ assetId: target }, options);
    else if (URL_TARGET.test(target)) result = await svc.verify(target, options);
    else {
      const file = existingFile(resolve(ctx.io.cwd, target));
      // A File keeps the name the service sees; its type is read from the bytes there.
      result = await svc.verify(new File([await openAsBlob(file.path)], file.name), options);
    }
    if (ctx.json) return jsonOut(ctx, result);
    printVerdict(ctx, result);
    return EXIT.ok;
  },
};
