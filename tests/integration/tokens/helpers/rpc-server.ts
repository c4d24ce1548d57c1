import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { AccountLayout, AccountState, ACCOUNT_SIZE } from "@solana/spl-token";
import { Keypair, PublicKey } from "@solana/web3.js";
import { SYSTEM_PROGRAM_ADDRESS, TOKEN_2022_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS } from "../../../../lib/program/constants";
import { mintAccountData, type MintSpec } from "../../../helpers/mint-account";

interface Account {
  owner: string;
  data: Buffer;
  lamports: number;
}

/**
 * A real Solana JSON-RPC peer over HTTP answering `getMultipleAccounts` (and
 * `getAccountInfo`) from accounts built with @solana/spl-token's layouts, so
 * the chain mint reader is exercised through web3.js end to end.
 */
export interface RpcFaults {
  /** Every n-th request fails (1: all of them; 0: none). */
  failEvery: number;
  /** How a failing request fails: an HTTP 503, a dropped connection, or a JSON-RPC error. */
  how?: "http" | "drop" | "rpc-error";
  /** Every request is held this long before it is answered (or fails). */
  delayMs?: number;
}

export interface TestRpc {
  url: string;
  /** getMultipleAccounts requests received, with how many keys each asked for (failed ones included). */
  calls: number[];
  /** Requests answered with a fault since the faults were last set. */
  failures(): number;
  setFaults(faults: RpcFaults): void;
  /** A mint with a mint authority and no freeze authority; `mint` adds to or overrides that (Token-2022 extensions included). */
  addMint(decimals: number, options?: { token2022WithExtension?: boolean; program?: "token" | "token-2022"; mint?: Partial<MintSpec>; address?: string }): string;
  /** Replaces an account's data, as a later slot would show it. */
  setMint(address: string, spec: MintSpec, program?: "token" | "token-2022"): void;
  addTokenAccount(mint: string): string;
  addSystemAccount(): string;
  stop(): Promise<void>;
}

const mintSpec = (decimals: number, spec: Partial<MintSpec> = {}): MintSpec => ({ decimals, mintAuthority: Keypair.generate().publicKey, ...spec });

export async function startTestRpc(): Promise<TestRpc> {
  const accounts = new Map<string, Account>();
  const calls: number[] = [];
  let faults: RpcFaults = { failEvery: 0 };
  let received = 0;
  let failed = 0;

  const encode = (key: string) => {
    const account = accounts.get(key);
    if (!account) return null;
    return {
      data: [account.data.toString("base64"), "base64"],
      executable: false,
      lamports: account.lamports,
      owner: account.owner,
      rentEpoch: 0,
      space: account.data.length,
    };
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    // Browsers call RPC nodes cross-origin (a wallet's balance); nodes allow it.
    res.setHeader("access-control-allow-origin", "*");
    if (req.method === "OPTIONS") {
      res.writeHead(204, { "access-control-allow-methods": "POST, OPTIONS", "access-control-allow-headers": req.headers["access-control-request-headers"] ?? "content-type" });
      return void res.end();
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const request = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { id: unknown; method: string; params: unknown[] };
    const context = { apiVersion: "2.2.0", slot: 1234 };
    received++;
    if (faults.delayMs) await new Promise((r) => setTimeout(r, faults.delayMs));
    if (faults.failEvery > 0 && received % faults.failEvery === 0) {
      failed++;
      if (request.method === "getMultipleAccounts") calls.push((request.params[0] as string[]).length);
      if (faults.how === "drop") return void res.destroy();
      if (faults.how === "rpc-error") {
        res.writeHead(200, { "content-type": "application/json" });
        return void res.end(JSON.stringify({ jsonrpc: "2.0", id: request.id, error: { code: -32005, message: "Node is behind" } }));
      }
      res.writeHead(503, { "content-type": "text/plain" });
      return void res.end("Service Unavailable");
    }
    let body: unknown;
    if (request.method === "getMultipleAccounts") {
      const keys = request.params[0] as string[];
      calls.push(keys.length);
      body = keys.length > 100
        ? { jsonrpc: "2.0", id: request.id, error: { code: -32602, message: "Too many inputs provided; max 100" } }
        : { jsonrpc: "2.0", id: request.id, result: { context, value: keys.map(encode) } };
    } else if (request.method === "getBalance") {
      const account = accounts.get(request.params[0] as string);
      body = { jsonrpc: "2.0", id: request.id, result: { context, value: account?.lamports ?? 0 } };
    } else if (request.method === "getAccountInfo") {
      body = { jsonrpc: "2.0", id: request.id, result: { context, value: encode(request.params[0] as string) } };
    } else {
      body = { jsonrpc: "2.0", id: request.id, error: { code: -32601, message: "Method not found" } };
    }
    const text = JSON.stringify(body);
    res.writeHead(200, { "content-type": "application/json" });
    res.end(text);
  };

  const server = createServer((req, res) => void handle(req, res).catch(() => res.destroy()));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  const add = (owner: string, data: Buffer, key = Keypair.generate().publicKey.toBase58()) => {
    accounts.set(key, { owner, data, lamports: 1_461_600 });
    return key;
  };

  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    failures: () => failed,
    setFaults(next) {
      faults = next;
      received = 0;
      failed = 0;
    },
    addMint(decimals, options = {}) {
      // One (MintCloseAuthority) extension: base mint, padding to 165, account type 1, TLV.
      if (options.token2022WithExtension) {
        return add(TOKEN_2022_PROGRAM_ADDRESS, mintAccountData(mintSpec(decimals, { mintCloseAuthority: Keypair.generate().publicKey, ...options.mint })), options.address);
      }
      const program = (options.program ?? (options.mint ? "token-2022" : "token")) === "token-2022" ? "token-2022" : "spl-token";
      return add(program === "token-2022" ? TOKEN_2022_PROGRAM_ADDRESS : TOKEN_PROGRAM_ADDRESS, mintAccountData(mintSpec(decimals, options.mint), program), options.address);
    },
    setMint(address, spec, program = "token-2022") {
      const account = accounts.get(address);
      if (!account) throw new Error(`no account ${address}`);
      const owner = program === "token-2022" ? TOKEN_2022_PROGRAM_ADDRESS : TOKEN_PROGRAM_ADDRESS;
      accounts.set(address, { ...account, owner, data: mintAccountData(spec, program === "token-2022" ? "token-2022" : "spl-token") });
    },
    addTokenAccount(mint) {
      const data = Buffer.alloc(ACCOUNT_SIZE);
      AccountLayout.encode(
        {
          mint: new PublicKey(mint),
          owner: Keypair.generate().publicKey,
          amount: 5n,
          delegateOption: 0,
          delegate: PublicKey.default,
          state: AccountState.Initialized,
          isNativeOption: 0,
          isNative: 0n,
          delegatedAmount: 0n,
          closeAuthorityOption: 0,
          closeAuthority: PublicKey.default,
        },
        data,
      );
      return add(TOKEN_PROGRAM_ADDRESS, data);
    },
    addSystemAccount: () => add(SYSTEM_PROGRAM_ADDRESS, Buffer.alloc(0)),
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
