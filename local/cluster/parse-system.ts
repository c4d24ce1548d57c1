import { accountAt, ByteReader, type InstructionView, NotParsable, type ParsedInstructionValue, requireAccounts, requireKnownAccounts } from "./parse-support";

/**
 * System program instructions in a node's jsonParsed form
 * (solana-transaction-status parse_system): the bincode SystemInstruction,
 * its accounts by role, lamports and space as u64 numbers.
 */
export function parseSystem(view: InstructionView): ParsedInstructionValue {
  const data = new ByteReader(view.data);
  const tag = data.u32();
  requireKnownAccounts(view);
  const at = (position: number) => accountAt(view, position);
  const need = (count: number) => requireAccounts(view, count);
  switch (tag) {
    case 0: {
      const lamports = data.u64();
      const space = data.u64();
      const owner = data.pubkey();
      need(2);
      return { type: "createAccount", info: { source: at(0), newAccount: at(1), lamports, space, owner } };
    }
    case 1: {
      const owner = data.pubkey();
      need(1);
      return { type: "assign", info: { account: at(0), owner } };
    }
    case 2: {
      const lamports = data.u64();
      need(2);
      return { type: "transfer", info: { source: at(0), destination: at(1), lamports } };
    }
    case 3: {
      const base = data.pubkey();
      const seed = data.bincodeString();
      const lamports = data.u64();
      const space = data.u64();
      const owner = data.pubkey();
      need(2);
      return { type: "createAccountWithSeed", info: { source: at(0), newAccount: at(1), base, seed, lamports, space, owner } };
    }
    case 4:
      need(3);
      return { type: "advanceNonce", info: { nonceAccount: at(0), recentBlockhashesSysvar: at(1), nonceAuthority: at(2) } };
    case 5: {
      const lamports = data.u64();
      need(5);
      return {
        type: "withdrawFromNonce",
        info: { nonceAccount: at(0), destination: at(1), recentBlockhashesSysvar: at(2), rentSysvar: at(3), nonceAuthority: at(4), lamports },
      };
    }
    case 6: {
      const authority = data.pubkey();
      need(3);
      return { type: "initializeNonce", info: { nonceAccount: at(0), recentBlockhashesSysvar: at(1), rentSysvar: at(2), nonceAuthority: authority } };
    }
    case 7: {
      const authority = data.pubkey();
      need(2);
      return { type: "authorizeNonce", info: { nonceAccount: at(0), nonceAuthority: at(1), newAuthorized: authority } };
    }
    case 8: {
      const space = data.u64();
      need(1);
      return { type: "allocate", info: { account: at(0), space } };
    }
    case 9: {
      const base = data.pubkey();
      const seed = data.bincodeString();
      const space = data.u64();
      const owner = data.pubkey();
      need(2);
      return { type: "allocateWithSeed", info: { account: at(0), base, seed, space, owner } };
    }
    case 10: {
      const base = data.pubkey();
      const seed = data.bincodeString();
      const owner = data.pubkey();
      need(2);
      return { type: "assignWithSeed", info: { account: at(0), base, seed, owner } };
    }
    case 11: {
      const lamports = data.u64();
      const sourceSeed = data.bincodeString();
      const sourceOwner = data.pubkey();
      need(3);
      return { type: "transferWithSeed", info: { source: at(0), sourceBase: at(1), destination: at(2), lamports, sourceSeed, sourceOwner } };
    }
    case 12:
      need(1);
      return { type: "upgradeNonce", info: { nonceAccount: at(0) } };
    default:
      throw new NotParsable(`unknown system instruction ${tag}`);
  }
}
