import type { Database } from "../db/client";
import { feedback } from "../db/schema";

export type FeedbackRow = typeof feedback.$inferSelect;

/** Stores one feedback row (its message already sealed). */
export async function insertFeedback(db: Database, row: FeedbackRow): Promise<void> {
  await db.insert(feedback).values(row);
}
