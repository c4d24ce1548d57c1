export { startTokenStandin, type StandinMode, type StandinOptions, type StandinStats, type TokenStandin } from "./server";
export { WELL_KNOWN, THIN_TOKENS, UNKNOWN_MINTS, syntheticTokens } from "./catalog";
export { jupiterToken, type JupiterToken, type TokenSpec } from "./jupiter-token";
