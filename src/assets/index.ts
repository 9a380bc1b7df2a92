import { createRouter } from "../platform/context";
import { registerDownloadAsset } from "./download-asset";
import { registerGetAsset } from "./get-asset";
import { registerGetAssetDetail } from "./get-asset-detail";
import { registerListAssets } from "./list-assets";
import { registerPreviewRoutes } from "./preview";

export function assetRoutes() {
  const app = createRouter();
  registerListAssets(app);
  registerGetAsset(app);
  registerGetAssetDetail(app);
  registerDownloadAsset(app);
  registerPreviewRoutes(app);
  return app;
}
