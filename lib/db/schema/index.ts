export * from "./offers";
export * from "./fills";
export * from "./stats";
export * from "./scanner";
export * from "./chain";
export * from "./feed";
export * from "./candles";
export * from "./makers";
