import bs58 from "bs58";
import { describe, expect, it } from "vitest";
import { encodeInstructionData, INSTRUCTION_DISCRIMINATORS } from "../../lib/program";
import { decodeTransaction } from "../../lib/program/transaction-decoder";
import type { RawCompiledInstruction, RawTransaction } from "../../lib/program/raw-transaction";
import { addressOf, signatureOf } from "../helpers/fixtures";

const PROGRAM = addressOf("program");
const ROUTER = addressOf("router");
const SYSTEM = "11111111111111111111111111111111";
const k = (name: string) => addressOf(`key:${name}`);

const take = (fillAmount: bigint) => bs58.encode(encodeInstructionData({ name: "take_offer", args: { fillAmount } }));
const cancel = () => bs58.encode(encodeInstructionData({ name: "cancel_offer", args: {} }));

/** take_offer's 11 accounts, as key names. */
const TAKE_ACCOUNTS = ["taker", "offer", "maker", "tokenMint", "paymentMint", "escrow", "takerToken", "takerPayment", "makerReceive", "treasury", "tokenProgram"];

function transaction(keys: string[], instructions: RawCompiledInstruction[], meta: Partial<NonNullable<RawTransaction["meta"]>> = {}): RawTransaction {
  return {
    slot: 4242,
    blockTime: 1_790_000_000,
    version: 0,
    meta: { err: null, innerInstructions: [], loadedAddresses: { writable: [], readonly: [] }, ...meta },
    transaction: { signatures: [signatureOf("decode")], message: { accountKeys: keys, instructions } },
  };
}

describe("decodeTransaction", () => {
  const keys = [...TAKE_ACCOUNTS.map(k), PROGRAM, ROUTER, SYSTEM];
  const index = (name: string) => keys.indexOf(name);
  const takeIx = (amount: bigint): RawCompiledInstruction => ({
    programIdIndex: index(PROGRAM),
    accounts: TAKE_ACCOUNTS.map((n) => index(k(n))),
    data: take(amount),
  });

  it("names a take's accounts by role and reads its amount", () => {
    const decoded = decodeTransaction(transaction(keys, [takeIx(77n)]), PROGRAM);
    expect(decoded).toMatchObject({ slot: 4242n, blockTime: new Date(1_790_000_000_000), failed: false, undecodable: 0 });
    expect(decoded.events).toHaveLength(1);
    expect(decoded.events[0]).toMatchObject({ name: "take_offer", args: { fillAmount: 77n }, ixIndex: 0, cpi: false });
    expect(decoded.events[0]!.accounts).toMatchObject({ taker: k("taker"), offer: k("offer"), maker: k("maker"), treasuryPaymentAccount: k("treasury") });
  });

  it("finds takes invoked by another program (CPI) and numbers every instruction in execution order", () => {
    const routerIx: RawCompiledInstruction = { programIdIndex: index(ROUTER), accounts: [], data: "" };
    const otherIx: RawCompiledInstruction = { programIdIndex: index(SYSTEM), accounts: [], data: "3Bxs4h24hBtQy9rw" };
    const decoded = decodeTransaction(
      transaction(keys, [otherIx, routerIx, takeIx(5n)], {
        innerInstructions: [{ index: 1, instructions: [takeIx(1n), otherIx, takeIx(2n)] }],
      }),
      PROGRAM,
    );
    expect(decoded.events.map((e) => [e.ixIndex, e.cpi, e.name === "take_offer" && e.args.fillAmount])).toEqual([
      [2, true, 1n],
      [4, true, 2n],
      [5, false, 5n],
    ]);
  });

  it("resolves account indexes over static keys, then the lookup tables' writable, then readonly addresses (v0)", () => {
    const staticKeys = [k("taker"), PROGRAM];
    const writable = [k("offer"), k("maker"), k("escrow"), k("takerToken"), k("takerPayment"), k("makerReceive"), k("treasury")];
    const readonly = [k("tokenMint"), k("paymentMint"), k("tokenProgram")];
    const all = [...staticKeys, ...writable, ...readonly];
    const ix: RawCompiledInstruction = { programIdIndex: 1, accounts: TAKE_ACCOUNTS.map((n) => all.indexOf(k(n))), data: take(9n) };
    const decoded = decodeTransaction(transaction(staticKeys, [ix], { loadedAddresses: { writable, readonly } }), PROGRAM);
    expect(decoded.events[0]!.accounts).toMatchObject({ offer: k("offer"), tokenMint: k("tokenMint"), tokenProgram: k("tokenProgram") });
  });

  it("yields nothing for a failed transaction", () => {
    const decoded = decodeTransaction(transaction(keys, [takeIx(77n)], { err: { InstructionError: [0, { Custom: 6001 }] } }), PROGRAM);
    expect(decoded).toMatchObject({ failed: true, events: [] });
  });

  it("skips and counts program instructions with an unknown discriminator, too few accounts or bad data", () => {
    const unknown: RawCompiledInstruction = { programIdIndex: index(PROGRAM), accounts: [0, 1], data: bs58.encode(new Uint8Array(16).fill(9)) };
    const short: RawCompiledInstruction = { programIdIndex: index(PROGRAM), accounts: [0], data: take(1n) };
    const garbage: RawCompiledInstruction = { programIdIndex: index(PROGRAM), accounts: [0, 1], data: "0OIl" };
    const okCancel: RawCompiledInstruction = { programIdIndex: index(PROGRAM), accounts: [0, 1, 5, 6, 10], data: cancel() };
    const decoded = decodeTransaction(transaction(keys, [unknown, short, garbage, okCancel]), PROGRAM);
    expect(decoded.undecodable).toBe(3);
    expect(decoded.events.map((e) => e.name)).toEqual(["cancel_offer"]);
    expect(INSTRUCTION_DISCRIMINATORS.cancel_offer).toHaveLength(8);
  });

  it("ignores instructions of other programs entirely", () => {
    const decoded = decodeTransaction(transaction(keys, [{ programIdIndex: index(SYSTEM), accounts: [0], data: take(1n) }]), PROGRAM);
    expect(decoded).toMatchObject({ events: [], undecodable: 0 });
  });
});
