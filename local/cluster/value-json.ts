/** A value that is already JSON text, spliced in as it is (an RPC result built by concatenation, say). */
export class RawJson {
  constructor(readonly json: string) {}
}

/**
 * JSON text of a value the way a node's serde_json::Value prints it: object
 * keys in sorted order (a BTreeMap), u64s exact (bigint here, which
 * JSON.stringify refuses), and RawJson spliced in as it is.
 */
export function valueJson(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "string") return JSON.stringify(value);
  if (value instanceof RawJson) return value.json;
  if (Array.isArray(value)) return `[${value.map(valueJson).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, field]) => `${JSON.stringify(key)}:${valueJson(field)}`).join(",")}}`;
}
