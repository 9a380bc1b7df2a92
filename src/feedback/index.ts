import { createRouter } from "../platform/context";
import { register as createFeedback } from "./routes/create-feedback";

/** Feedback (issue #18). */
export function feedbackRoutes() {
  const app = createRouter();
  createFeedback(app);
  return app;
}
