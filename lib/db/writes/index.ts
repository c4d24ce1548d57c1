export * from "./writer";
export * from "./offers";
export * from "./fills";
export * from "./transactions";
export * from "./chain-identity";
export * from "./feed";
