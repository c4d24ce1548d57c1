import { StartupError } from "./startup-error";

/**
 * A non-negative number from the environment (unset or empty: `fallback`),
 * for the settings of `npm start` and the local stand-ins that platform/env.ts does
 * not parse; a bad value is a StartupError naming the variable.
 */
export function numberSetting(name: string, fallback: number, options: { integer?: boolean } = {}): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  const kind = options.integer ? "integer" : "number";
  if (!Number.isFinite(value) || value < 0 || (options.integer && !Number.isInteger(value))) {
    throw new StartupError(`${name} must be a non-negative ${kind}, got "${raw}"`, `correct it or unset it for ${fallback}`);
  }
  return value;
}
