import { z } from "zod";

// The subset of a Jupiter Tokens V2 token that the service reads. Unknown keys
// are dropped; optional ones are nullish because the provider omits or nulls
// them for young or thinly traded tokens.
const optionalNumber = z.number().finite().nullish();

const windowStats = z.object({
  priceChange: optionalNumber,
  buyVolume: optionalNumber,
  sellVolume: optionalNumber,
});

export const providerTokenSchema = z.object({
  id: z.string().min(32).max(44),
  name: z.string(),
  symbol: z.string(),
  icon: z.string().nullish(),
  decimals: z.number().int().min(0).max(255),
  usdPrice: optionalNumber,
  liquidity: optionalNumber,
  fdv: optionalNumber,
  mcap: optionalNumber,
  holderCount: optionalNumber,
  organicScore: optionalNumber,
  isVerified: z.boolean().nullish(),
  stats24h: windowStats.nullish(),
});

export const providerTokenListSchema = z.array(providerTokenSchema);

export type ProviderToken = z.infer<typeof providerTokenSchema>;
