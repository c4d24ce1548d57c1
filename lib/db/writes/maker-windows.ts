import type { Writer } from "./writer";

/**
 * Moves the leaderboard windows' totals (maker_window_totals) to where the
 * windows start now, taking out the hours and days that left them; a no-op
 * between bucket boundaries. Reads are exact whether or not this has run
 * (they read maker_activity while a window's totals lag); it keeps them on
 * the totals' index walk. Resolves to the number of windows moved.
 */
export async function advanceMakerWindows(sql: Writer): Promise<number> {
  const [row] = await sql<{ moved: number }[]>`select maker_window_totals_advance() as moved`;
  return row?.moved ?? 0;
}
