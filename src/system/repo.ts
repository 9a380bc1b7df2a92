/** `SELECT 1` against D1: true when the database answered with the row. Never throws. */
export async function selectOne(db: D1Database): Promise<boolean> {
  return db
    .prepare("SELECT 1 AS one")
    .first<{ one: number }>()
    .then((row: { one: number } | null) => row?.one === 1)
    .catch(() => false);
}
