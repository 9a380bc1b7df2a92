import { createRouter } from "../platform/context";
import { registerAbortUpload } from "./abort-upload";
import { registerCompleteUpload } from "./complete-upload";
import { registerCreateUpload } from "./create-upload";

export function uploadRoutes() {
  const app = createRouter();
  registerCreateUpload(app);
  registerCompleteUpload(app);
  registerAbortUpload(app);
  return app;
}
