import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { API_SCHEMA_FILE, apiSchemaTypes } from "../../scripts/api-types";

// The UI's client is typed from client/api-schema.d.ts, a committed file
// generated from the OpenAPI document: it must be what the document gives now.

describe("client/api-schema.d.ts", () => {
  it("holds the types of the current OpenAPI document (else run npm run api:types)", async () => {
    expect(readFileSync(API_SCHEMA_FILE, "utf8"), "stale: run npm run api:types and commit the file").toBe(await apiSchemaTypes());
  });
});
