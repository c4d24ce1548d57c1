import { describe, expect, it } from "vitest";
import { parseServerEnv, rpcBatchSize } from "../../platform/env";

const parse = (vars: Record<string, string>) => parseServerEnv({ NODE_ENV: "test", ...vars });

describe("RPC_BATCH_SIZE", () => {
  it("defaults to 25 calls a batch without a request budget, so a batch's reply stays a small string", () => {
    expect(rpcBatchSize(parse({}))).toBe(25);
    expect(rpcBatchSize(parse({ RPC_RPS: "0" }))).toBe(25);
  });

  it("defaults to 100 calls a batch when RPC_RPS rations requests", () => {
    expect(rpcBatchSize(parse({ RPC_RPS: "4" }))).toBe(100);
  });

  it("is what the operator sets, budget or not", () => {
    expect(rpcBatchSize(parse({ RPC_BATCH_SIZE: "60" }))).toBe(60);
    expect(rpcBatchSize(parse({ RPC_BATCH_SIZE: "10", RPC_RPS: "4" }))).toBe(10);
    expect(() => parse({ RPC_BATCH_SIZE: "0" })).toThrow(/RPC_BATCH_SIZE/);
  });
});
