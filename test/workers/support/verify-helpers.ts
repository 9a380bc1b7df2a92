import { exports } from "cloudflare:workers";
import { api, BASE, callUrl, json, signUploaded } from "./helpers";

/** POST /v1/verify with a multipart file, from a given (fake) client address. */
export async function verifyFile(bytes: Uint8Array, options: { key?: string; ip?: string; name?: string; manifest?: Uint8Array } = {}) {
  const form = new FormData();
  form.append("file", new File([bytes as Uint8Array<ArrayBuffer>], options.name ?? "file.bin"));
  if (options.manifest) form.append("manifest", new File([options.manifest as Uint8Array<ArrayBuffer>], "file.c2pa"));
  const headers: Record<string, string> = { "cf-connecting-ip": options.ip ?? `198.51.100.${Math.floor(Math.random() * 250)}` };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  return (exports as unknown as { default: Fetcher }).default.fetch(`${BASE}/v1/verify`, { method: "POST", body: form, headers });
}

export async function signedCopy(key: string, source: Uint8Array, mediaType: string, recipeId = "rcp_system_sign_only") {
  const { assetId, job } = await signUploaded(key, source, mediaType, recipeId, "photo");
  const d = await json(await api(`/v1/assets/${assetId}/download`, { method: "POST", key }));
  const res = await callUrl(d.url, { method: "GET", headers: d.headers });
  return { assetId, job, bytes: new Uint8Array(await res.arrayBuffer()), download: d };
}

/**
 * A deterministic textured RGBA image (stripes and a XOR pattern): enough structure for PDQ and ISCC to index it,
 * unlike a flat or smooth synthetic picture.
 */
export function texturedRgba(width: number, height: number): Uint8Array {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      data[i] = (x * 3 + ((y >> 4) & 1) * 60) & 255;
      data[i + 1] = (y * 2 + ((x >> 5) & 1) * 90) & 255;
      data[i + 2] = ((x ^ y) * 5) & 255;
      data[i + 3] = 255;
    }
  return data;
}
