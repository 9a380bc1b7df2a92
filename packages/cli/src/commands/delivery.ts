import { createHash } from "node:crypto";
import type { Context } from "../command.ts";
import { CliError, EXIT } from "../exit.ts";
import { apiOf } from "./jobs.ts";
import { writeFileAtomic } from "./shared.ts";

export interface Saved {
  readonly path: string;
  readonly sha256: string;
  readonly byte_length: number;
  readonly sidecar: { path: string; sha256: string; byte_length: number } | null;
}

async function fetchChecked(
  ctx: Context,
  what: string,
  url: string,
  headers: Record<string, string>,
  sha256: string,
  length: number,
): Promise<Uint8Array> {
  let res: Response;
  try {
    // Exactly the returned headers, never the API key (SPEC download rule).
    res = await fetch(url, { headers, signal: ctx.io.signal });
  } catch (e) {
    throw new CliError(EXIT.network, `cannot fetch the ${what}: ${(e as Error).message}`);
  }
  if (!res.ok)
    throw new CliError(
      res.status === 404 || res.status === 410 ? EXIT.notFound : EXIT.unavailable,
      `${what} download answered ${res.status}`,
    );
  const bytes = new Uint8Array(await res.arrayBuffer());
  const got = createHash("sha256").update(bytes).digest("hex");
  if (bytes.length !== length || got !== sha256)
    throw new CliError(EXIT.integrity, `the ${what} does not match its published hash`, [
      `expected ${sha256} (${length} bytes)`,
      `got      ${got} (${bytes.length} bytes)`,
    ]);
  return bytes;
}

/** Downloads an asset's published bytes (and sidecar manifest) into `dir`, each checked against its SHA-256 and length. */
export async function downloadAsset(ctx: Context, assetId: string, dir: string, given?: Record<string, any> | null): Promise<Saved> {
  const d = given ?? (await apiOf(ctx).request<Record<string, any>>("POST", `/v1/assets/${assetId}/download`));
  const bytes = await fetchChecked(ctx, "file", d.url, d.headers ?? {}, d.sha256, d.byte_length);
  const path = writeFileAtomic(dir, d.filename, bytes);
  let sidecar: Saved["sidecar"] = null;
  if (d.sidecar_manifest) {
    const s = d.sidecar_manifest;
    const mbytes = await fetchChecked(ctx, "sidecar manifest", s.url, s.headers ?? {}, s.sha256, s.byte_length);
    sidecar = { path: writeFileAtomic(dir, s.filename, mbytes), sha256: s.sha256, byte_length: s.byte_length };
  }
  return { path, sha256: d.sha256, byte_length: d.byte_length, sidecar };
}
