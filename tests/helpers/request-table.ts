import { addressOf } from "./fixtures";

// Requests on both sides of the OpenAPI document's line, shared by the
// suite's own contract check and by Prism's validating proxy
// (tests/integration/reliability/api-document.test.ts).

const A = addressOf("token");
const B = addressOf("payment");
const M = addressOf("maker");

/** Requests the document accepts: the server answers each 2xx. */
export const accepted = [
  "/v1",
  "/v1/openapi.json",
  "/v1/stats",
  "/v1/markets",
  "/v1/offers",
  "/v1/offers?limit=1",
  "/v1/offers?limit=200",
  "/v1/offers?limit=5000",
  "/v1/offers?limit=9007199254740991",
  "/v1/offers?offset=100000",
  "/v1/offers?status=cancelled&side=buy",
  `/v1/offers?sort=price&tokenMint=${A}&paymentMint=${B}`,
  `/v1/offers?maker=${M}&unknown=ignored`,
  `/v1/offers?maker=${"1".repeat(32)}`,
  "/v1/fills?fromTime=0&toTime=253402300799",
  `/v1/fills?taker=${M}&limit=10`,
  `/v1/makers/${M}/stats`,
  `/v1/makers/${M}/stats?window=24h`,
  "/v1/makers",
  "/v1/makers?window=7d&sort=offers&limit=5",
  `/v1/makers?window=all&sort=volume&paymentMint=${B}`,
  "/v1/fills?format=json",
  `/v1/makers/${M}/offers?status=open&limit=5`,
  `/v1/candles?tokenMint=${A}&paymentMint=${B}&resolution=1h&limit=1500`,
  `/v1/candles?tokenMint=${A}&paymentMint=${B}&resolution=1d&fromTime=0`,
];

/** Requests the document refuses: the server answers each 4xx. */
export const refused = [
  "/v1/offers?limit=0",
  "/v1/offers?limit=-1",
  "/v1/offers?limit=1.5",
  "/v1/offers?limit=1e3",
  "/v1/offers?limit=9007199254740992",
  `/v1/candles?tokenMint=${A}&paymentMint=${B}&resolution=1h&limit=99999999999999999999`,
  "/v1/offers?offset=-1",
  "/v1/offers?offset=100001",
  "/v1/offers?status=bogus",
  "/v1/offers?side=ask",
  "/v1/offers?sort=size",
  `/v1/offers?maker=${"1".repeat(31)}`,
  `/v1/offers?maker=${M}0`,
  "/v1/offers?tokenMint=0OIl0OIl0OIl0OIl0OIl0OIl0OIl0OIl",
  `/v1/offers?cursor=${"a".repeat(201)}`,
  "/v1/offers?cursor=a=b",
  "/v1/fills?fromTime=-5",
  "/v1/fills?toTime=253402300800",
  "/v1/makers/short/stats",
  "/v1/makers?window=1y",
  "/v1/makers?sort=price",
  `/v1/makers/${M}/stats?window=week`,
  "/v1/fills?format=xml",
  `/v1/candles?tokenMint=${A}&paymentMint=${B}&resolution=2h`,
  `/v1/candles?paymentMint=${B}&resolution=1h`,
  `/v1/candles?tokenMint=${A}&paymentMint=${B}&resolution=1h&limit=0`,
  "/v1/tokens?mints=notamint",
  `/v1/tokens?mints=${A};${B}`,
  "/v1/stream?types=fills",
  "/v1/stream?after=-1",
  `/v1/stream?after=${"9".repeat(20)}`,
];
