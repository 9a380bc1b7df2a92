import { registryFor } from "../../../src/catalog/installed";
import { database } from "../../../src/db/client";
import { admitSign } from "../../../src/jobs/admission";
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
