export * from "./executor";
export * from "./offers";
export * from "./fills";
export * from "./transactions";
export * from "./chain-identity";
export * from "./chain-agreement";
export * from "./feed";
