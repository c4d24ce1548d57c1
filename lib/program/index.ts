/** The offer-book program codec: layouts, instructions, PDAs and arithmetic, shared by worker, local cluster and UI. */
export * from "./constants";
export * from "./bytes";
export * from "./decimal";
export * from "./discriminators";
export * from "./errors";
export * from "./offer-account";
export * from "./instruction-data";
export * from "./instruction-accounts";
export * from "./builders";
export * from "./pda";
export * from "./pricing";
export * from "./units";
