/** Outcome tallies the hostile-input campaigns print: one count per key, and the counts as a table, largest first. */
export const count = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);

export const table = (map: Map<string, number>) =>
  [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([k, c]) => `${String(c).padStart(5)}  ${k}`)
    .join("\n");
