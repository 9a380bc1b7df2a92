import type { Download } from "@svc/client";
import type { Context } from "../command.ts";
import { CliError, EXIT } from "../exit.ts";
import { safe } from "../output.ts";
import { clientOf } from "../sdk.ts";
import { writeFileAtomic } from "./shared.ts";

/** Where a download went, and the published hash its bytes were checked against. */
export interface Saved {
  readonly path: string;
  readonly sha256: string;
  readonly byte_length: number;
  readonly media_type: string;
  readonly sidecar: { path: string; sha256: string } | null;
}

/**
 * Downloads an asset's published bytes (and its sidecar manifest, for sidecar formats) with the SDK, which refuses
 * bytes whose SHA-256 or length differ from the published ones (exit 8, nothing written), and writes them into
 * `dir` under the download's own filename (the sidecar beside it, as the contract asks). The name comes from the
 * service, so only an asset-shaped one (`ast_….<ext>`, of this asset when its id is known) is written: never a
 * dot-file, `package.json` or a shell's rc file (exit 8).
 */
export async function downloadInto(ctx: Context, asset: string | Download, dir: string): Promise<Saved> {
  const got = await clientOf(ctx).download(asset, { verifyHash: true, signal: ctx.io.signal });
  const id = typeof asset === "string" ? asset : null;
  const name = assetFileName(got.filename, id);
  const sidecarName = got.sidecar ? assetFileName(got.sidecar.filename, id) : null;
  const path = writeFileAtomic(dir, name, got.bytes);
  const sidecar =
    got.sidecar && sidecarName ? { path: writeFileAtomic(dir, sidecarName, got.sidecar.bytes), sha256: got.sidecar.sha256 } : null;
  return { path, sha256: got.sha256, byte_length: got.byte_length, media_type: got.media_type, sidecar };
}

const ASSET_FILE_NAME = /^(ast_[a-z2-7]{16})(\.[a-z0-9]{1,8})+$/;

/** `name` if it is an asset-shaped file name (of asset `id`, when given); otherwise an integrity failure. */
export function assetFileName(name: string, id: string | null): string {
  const m = ASSET_FILE_NAME.exec(name);
  if (!m || (id !== null && m[1] !== id))
    throw new CliError(EXIT.integrity, `refusing the download's file name ${JSON.stringify(safe(name))}: not ${id ?? "ast_…"}.<ext>`);
  return name;
}
