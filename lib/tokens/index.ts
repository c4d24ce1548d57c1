// The token service as the route handlers and the bench see it. One service
// per process (it owns the cache, the in-flight calls and, without Redis, the
// budget), built from the parsed environment:
//
//   createTokenService({
//     apiUrl: env.TOKEN_API_URL, apiKey: env.TOKEN_API_KEY, rpm: env.TOKEN_API_RPM,
//     redisUrl: env.REDIS_URL, rpcUrl: env.SOLANA_RPC_URL,
//     placeholderImageUrl: "/token-placeholder.svg",
//   })
//
// Both degrade to stale cached answers while the provider is down. With
// nothing cached, they throw UpstreamError (502); resolve() throws
// ChainUnavailable (503) when a mint's decimals could not be read in time.
// One read of a mint account gives its decimals and its safety facts
// (authorities, Token-2022 extensions), cached together.
export { createTokenService } from "./service";
export { UpstreamError, isUpstreamError, ChainUnavailable, isChainUnavailable, type UpstreamFailure } from "./errors";
export type { Token, TokenSafety, TrendingItem, TrendingResult, TokenService, TokenServiceConfig, TokenServiceStats } from "./types";
export { readMintAccount, createChainMintReader, type ChainMint } from "./chain-mints";
export { MINT_RISKS, type MintRisk, type MintSafety } from "./mint-safety";
