import { readFileSync } from "node:fs";
import { basename, resolve } from "node:path";
import { ApiFailure, createApi } from "../api.ts";
import { stringFlag } from "../args.ts";
import type { Command, Context } from "../command.ts";
import { CliError, EXIT } from "../exit.ts";
import { json, type Style } from "../output.ts";
import { existingFile } from "./shared.ts";

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
const TONE_STYLE: Record<Tone, Style> = { good: "green", warn: "yellow", bad: "red", info: "cyan", neutral: "bold" };
/** Public verify reads at most 25 MiB; a URL's bytes are fetched up to that. */
const MAX_BYTES = 25 * 1024 * 1024;

async function fetchUrl(ctx: Context, url: string): Promise<{ bytes: Uint8Array; name: string }> {
  let res: Response;
  try {
    res = await fetch(url, { signal: ctx.io.signal, redirect: "follow" });
  } catch (e) {
    throw new CliError(EXIT.network, `cannot fetch ${url}: ${(e as Error).message}`);
  }
  if (!res.ok)
    throw new CliError(res.status === 404 || res.status === 410 ? EXIT.notFound : EXIT.unavailable, `${url} answered ${res.status}`);
  const declared = Number(res.headers.get("content-length") ?? "0");
  if (declared > MAX_BYTES) throw new CliError(EXIT.rejected, `${url} is larger than 25 MiB`);
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    total += chunk.length;
    if (total > MAX_BYTES) throw new CliError(EXIT.rejected, `${url} is larger than 25 MiB`);
    chunks.push(chunk);
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) bytes.set(c, (at += c.length) - c.length);
  return { bytes, name: basename(new URL(url).pathname) || "download" };
}

export function printVerdict(ctx: Context, r: Record<string, any>): void {
  const [title, tone] = HEADLINES[r.status] ?? [r.status, "neutral" as Tone];
  const confidence = typeof r.confidence === "number" ? ` (confidence ${Math.round(r.confidence * 100)} %)` : "";
  const lines = [
    `${ctx.paint(TONE_STYLE[tone], ctx.paint("bold", title))}${confidence}`,
    ctx.paint("dim", r.status),
    "",
    r.user_explanation ?? "",
  ];
  if (r.claims && Object.keys(r.claims).length) {
    const c = r.claims;
    const facts = [
      c.origin && `origin: ${c.origin}`,
      c.generator && `made with: ${c.generator}`,
      c.ai_generated === true && "declared AI-generated",
      c.ai_assisted === true && "declared AI-assisted",
      c.created_at && `signed: ${c.created_at}`,
    ].filter(Boolean);
    if (facts.length) lines.push("", ...facts.map((f) => `  ${f}`));
  }
  if (r.proves?.length) lines.push("", "What this shows:", ...r.proves.map((p: string) => `  ${ctx.paint("green", "+")} ${p}`));
  if (r.does_not_prove?.length)
    lines.push("", "What it does not show:", ...r.does_not_prove.map((p: string) => `  ${ctx.paint("dim", "-")} ${p}`));
  if (r.warnings?.length)
    lines.push(
      "",
      ...r.warnings.map(
        (w: any) => `${ctx.paint("yellow", "warning:")} ${typeof w === "string" ? w : (w.message ?? w.code ?? JSON.stringify(w))}`,
      ),
    );
  ctx.out(`${lines.join("\n")}\n`);
}

export const verifyCommand: Command = {
  path: ["verify"],
  summary: "Verify a file, a URL or one of your assets, and say what it proves",
  flags: [
    { name: "manifest", type: "string", placeholder: "FILE", description: "The sidecar .c2pa manifest of FILE, for sidecar formats." },
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
    const key = ctx.parsed.flags.public ? null : ctx.config.apiKey;
    const api = createApi(ctx.config.baseUrl, key, ctx.io.signal);
    let result: Record<string, any>;
    if (/^ast_[a-z2-7]{16}$/.test(target)) {
      result = await api.request("POST", "/v1/verify", { body: { asset_id: target } });
    } else {
      const { bytes, name } = /^https?:\/\//i.test(target)
        ? await fetchUrl(ctx, target)
        : (() => {
            const f = existingFile(resolve(ctx.io.cwd, target));
            return { bytes: new Uint8Array(readFileSync(f.path)), name: f.name };
          })();
      const manifestPath = stringFlag(ctx.parsed, "manifest");
      const form = new FormData();
      form.set("file", new Blob([bytes]), name);
      if (manifestPath) {
        const m = existingFile(resolve(ctx.io.cwd, manifestPath));
        form.set("manifest", new Blob([new Uint8Array(readFileSync(m.path))]), m.name);
      }
      let res: Response;
      try {
        res = await fetch(`${ctx.config.baseUrl}/v1/verify`, {
          method: "POST",
          headers: key ? { authorization: `Bearer ${key}` } : {},
          body: form,
          signal: ctx.io.signal,
        });
      } catch (e) {
        throw new CliError(EXIT.network, `cannot reach ${ctx.config.baseUrl}: ${(e as Error).message}`);
      }
      const body = (await res.json().catch(() => null)) as any;
      if (!res.ok)
        throw new ApiFailure(
          res.status,
          body?.code ?? null,
          body?.message ?? body?.detail ?? `HTTP ${res.status}`,
          body?.request_id ?? null,
        );
      result = body;
    }
    if (ctx.json) ctx.out(json(result));
    else printVerdict(ctx, result);
    return EXIT.ok;
  },
};
