import { createRouter } from "../platform/context";
import { registerAbortUpload } from "./routes/abort-upload";
import { registerCompleteUpload } from "./routes/complete-upload";
import { registerCreateUpload } from "./routes/create-upload";

export function uploadRoutes() {
  const app = createRouter();
  registerCreateUpload(app);
  registerCompleteUpload(app);
  registerAbortUpload(app);
  return app;
}
