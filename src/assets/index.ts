import { createRouter } from "../platform/context";
import { registerDownloadAsset } from "./routes/download-asset";
import { registerGetAsset } from "./routes/get-asset";
import { registerGetAssetDetail } from "./routes/get-asset-detail";
import { registerListAssets } from "./routes/list-assets";
import { registerPreviewRoutes } from "./routes/preview";

export function assetRoutes() {
  const app = createRouter();
  registerListAssets(app);
  registerGetAsset(app);
  registerGetAssetDetail(app);
  registerDownloadAsset(app);
  registerPreviewRoutes(app);
  return app;
}
