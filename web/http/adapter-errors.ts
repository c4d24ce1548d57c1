import type { ErrorShape } from "./endpoint";

/**
 * The DEXTools adapter's error body (its ResponseOfError: `code` and
 * `message`, with `issues` naming a parameter) on top of ours, which every
 * /v1 client reads: the same text under both names.
 */
export const dexToolsErrorShape: ErrorShape = (body) => ({
  ...body,
  message: body.error,
  ...(body.param === undefined ? {} : { issues: [{ param: body.param, code: body.code, message: body.error }] }),
});
