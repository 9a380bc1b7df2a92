import { createRouter } from "../platform/context";
import { registerGetReceipt } from "./routes/get-receipt";
import { registerListReceipts } from "./routes/list-receipts";

/** Receipts: the evidence each publication recorded (GET /v1/receipts, GET /v1/receipts/{receipt_id}). */
export function receiptRoutes() {
  const app = createRouter();
  registerListReceipts(app);
  registerGetReceipt(app);
  return app;
}
