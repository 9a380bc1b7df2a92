import { eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { objects } from "../db/schema";

/** The stored object with this id, whichever tenant owns it (a signed URL names the object, not the tenant). */
export async function objectById(db: Database, objectId: string) {
  const [row] = await db.select().from(objects).where(eq(objects.id, objectId)).limit(1);
  return row ?? null;
}
