import { createRouter } from "../platform/context";
import { registerCancelJob } from "./routes/cancel-job";
import { registerGetJob } from "./routes/get-job";
import { registerListJobs } from "./routes/list-jobs";
import { registerSign } from "./routes/sign";
import { registerSignBatch } from "./routes/sign-batch";

export function jobRoutes() {
  const app = createRouter();
  registerSign(app);
  registerSignBatch(app);
  registerListJobs(app);
  registerGetJob(app);
  registerCancelJob(app);
  return app;
}
