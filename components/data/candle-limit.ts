/** How many buckets a chart asks for and keeps while live, at every timeframe. */
export const CANDLE_LIMIT = 500;
