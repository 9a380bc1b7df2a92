import { createRouter } from "../platform/context";
import { registerCancelJob } from "./cancel-job";
import { registerGetJob } from "./get-job";
import { registerListJobs } from "./list-jobs";
import { registerSign } from "./sign";
import { registerSignBatch } from "./sign-batch";

export function jobRoutes() {
  const app = createRouter();
  registerSign(app);
  registerSignBatch(app);
  registerListJobs(app);
  registerGetJob(app);
  registerCancelJob(app);
  return app;
}
