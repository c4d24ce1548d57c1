/**
 * Keeps `mb` megabytes of small linked objects alive for the life of the
 * process: an old generation the size of the web's (Next's loaded modules and
 * the web's own state, some 60-90 MB), so that a bare server can be measured
 * with the collector's work on such a heap (bench:api-gc's GC_BALLAST_MB).
 */
export function holdBallast(mb: number): void {
  const objects: { id: number; name: string; next: unknown }[] = [];
  // About 80 bytes each: the object, its string and the array's slot.
  for (let i = 0; i < (mb * 1e6) / 80; i++) objects.push({ id: i, name: `n${i}`, next: objects[i - 1] ?? null });
  (globalThis as { benchBallast?: unknown }).benchBallast = objects;
}
