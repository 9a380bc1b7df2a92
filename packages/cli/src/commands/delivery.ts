import type { Download } from "@svc/client";
import type { Context } from "../command.ts";
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
 * `dir` under the download's own filename (the sidecar beside it, as the contract asks).
 */
export async function downloadInto(ctx: Context, asset: string | Download, dir: string): Promise<Saved> {
  const got = await clientOf(ctx).download(asset, { verifyHash: true, signal: ctx.io.signal });
  const path = writeFileAtomic(dir, got.filename, got.bytes);
  const sidecar = got.sidecar ? { path: writeFileAtomic(dir, got.sidecar.filename, got.sidecar.bytes), sha256: got.sidecar.sha256 } : null;
  return { path, sha256: got.sha256, byte_length: got.byte_length, media_type: got.media_type, sidecar };
}
