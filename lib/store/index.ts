export * from "./executor";
export * from "./offers";
export * from "./fills";
export * from "./transactions";
