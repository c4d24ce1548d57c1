/** The local Solana cluster stand-in: start it, drive it, read what it executed. */
export { startLocalCluster, type LocalCluster, type LocalClusterOptions, type RollbackOptions, type RollbackResult } from "./cluster";
export { expectedState, expectedStateJson, type ExpectedOffer, type ExpectedState } from "./expected";
export { movedPortsLine, preferredClusterPort } from "./listen";
export { FAULT_KINDS, type FaultConfig, type FaultKind } from "./faults";
export { FINALITY_DEPTH, Ledger, type Commitment, type LedgerTransaction, type SlotRecord } from "./ledger";
export type { FillRecord, ProgramEffect, ProgramIds, TransactionError } from "./transaction-executor";
export { ACTIVITY_KINDS, type ActivityKind, DemoTraders } from "./demo-traders";
export { ALL_LOCAL_MINTS, LOCAL_PAYMENT_MINTS, LOCAL_TOKEN_MINTS, type LocalMint } from "./tokens";
export { World } from "./world";
export { API_VERSION } from "./rpc";
