import { describe, expect, it } from "vitest";
import { parseLiveEvent, streamPath } from "../../client/live-events";
import { upsertCandle } from "../../client/live-merge";

const candle = (time: number, close: string) => ({ time, open: "1", high: "2", low: "1", close, volume: "10", quoteVolume: "20", fills: 1 });

describe("the stream's candle events", () => {
  it("parse with their pair and one candle per resolution, and are asked for by name", () => {
    const body = { tokenMint: "T", paymentMint: "P", candles: { "1m": candle(60, "1.5"), "1d": candle(0, "1.5") } };
    expect(parseLiveEvent("candle", "7", JSON.stringify(body))).toEqual({ type: "candle", id: "7", ...body });
    expect(parseLiveEvent("candle", "8", JSON.stringify({ tokenMint: "T" }))).toBeNull();
    expect(streamPath({ tokenMint: "T", types: ["offer", "candle", "fill"] })).toBe("/v1/stream?tokenMint=T&types=candle%2Cfill%2Coffer");
  });

  it("replace the candle of the same bucket and append a newer one, keeping the newest", () => {
    const list = [candle(0, "1"), candle(60, "2")];
    expect(upsertCandle(list, candle(60, "3"), 10).map((c) => c.close)).toEqual(["1", "3"]);
    expect(upsertCandle(list, candle(120, "4"), 10).map((c) => c.time)).toEqual([0, 60, 120]);
    expect(upsertCandle(list, candle(120, "4"), 2).map((c) => c.time)).toEqual([60, 120]);
  });
});
