import { registryFor } from "../../../src/catalog/installed";
import { database } from "../../../src/db/client";
import { admitSign } from "../../../src/jobs/admission";
import type { JobServices } from "../../../src/jobs/runner";
import { mediaServices } from "../../../src/media";
import type { ImageCodec, ManifestReader, ManifestReadResult } from "../../../src/media/types";
import { createTenant, fixture, testEnv, uploadAsset } from "./helpers";

/** An express watermark job on a fresh tenant's 1 MP JPEG, admitted (not run), with the row admission wrote. */
export async function admittedExpress() {
  const tenant = await createTenant();
  const { assetId } = await uploadAsset(tenant.key, fixture("sample-1mp.jpg"), "image/jpeg", "photo.jpg");
  const result = await admitSign(database(testEnv.DB), registryFor(testEnv), tenant.tenantId, {
    asset_id: assetId,
    recipe_id: "rcp_system_express_watermark_then_sign",
    mode: "express",
    fingerprint_algorithms: ["iscc-image", "pdq"],
  });
  if (result.status !== "admitted") throw new Error(JSON.stringify(result));
  return { tenant, assetId, job: result.job };
}

/**
 * The real media services with the image codec's whole-image `decode` replaced by the test's. Without a row source
 * the watermark step decodes whole: its first decode is the source, its second the read-back of its own output.
 */
export async function servicesWithDecode(decode: ImageCodec["decode"]): Promise<JobServices> {
  const real = await mediaServices(testEnv);
  const image = real.image!;
  const codec = image.codec;
  return {
    ...real,
    image: {
      ...image,
      codec: {
        mediaTypes: codec.mediaTypes,
        maxPixels: codec.maxPixels,
        encode: codec.encode.bind(codec),
        ...(codec.rowEncoder ? { rowEncoder: codec.rowEncoder.bind(codec) } : {}),
        decode,
      },
    },
  };
}

/** The real image codec's `decode`, for a test's wrapper to call through. */
export async function realDecode(): Promise<ImageCodec["decode"]> {
  const codec = (await mediaServices(testEnv)).image!.codec;
  return codec.decode.bind(codec);
}

/**
 * The real media services with the reference reader wrapped: `during` runs before each read (the publish step's
 * check), and `verdict`, when given, replaces what the reader reported.
 */
export async function servicesWithReader(
  during: () => Promise<void>,
  verdict?: (real: ManifestReadResult) => ManifestReadResult,
): Promise<JobServices> {
  const real = await mediaServices(testEnv);
  const reader: ManifestReader = {
    read: async (input) => {
      await during();
      const result = await real.reader.read(input);
      return verdict ? verdict(result) : result;
    },
  };
  return { ...real, reader } satisfies JobServices;
}
