import type { Bindings } from "../env";
import { selectOne } from "./repo";

/** Runs `SELECT 1` against D1, bounded to `timeoutMs`. */
export async function databaseAnswers(env: Bindings, timeoutMs = 2000): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([selectOne(env.DB), timeout]);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}

/**
 * Governance authorities. None is built yet, so each reports false: a probe never claims an authority
 * that does not exist. Each area that adds one reports its own health here.
 */
export function governanceAuthorities() {
  return { capture_authority: false, commercial_authority: false, derived_index_reconciler: false };
}
