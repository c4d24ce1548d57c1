import bs58 from "bs58";
import { formatUnits, TOKEN_2022_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS } from "../../lib/program";
import type { AccountRecord } from "./state";
import { isTokenAccountData, MINT_SIZE, mintExtensions, nativeReserveOf, TOKEN_ACCOUNT_SIZE } from "./tokens";

/** Token accounts and mints in the jsonParsed form of a node's account decoder (UiTokenAccount, UiMint). */

const q = (s: string) => JSON.stringify(s);

/** A node's UiExtension of each mint extension the local mints carry, by type, from its (one-key) value. */
const MINT_EXTENSION_JSON: Record<number, (key: string) => string> = {
  3: (key) => `{"extension":"mintCloseAuthority","state":{"closeAuthority":${key}}}`,
  12: (key) => `{"extension":"permanentDelegate","state":{"delegate":${key}}}`,
};

/** UiTokenAmount: the raw amount as a string, the decimals, and the human amount as a number and as exact text. */
export function tokenAmountJson(raw: bigint, decimals: number): string {
  const text = formatUnits(raw, decimals);
  return `{"amount":"${raw}","decimals":${decimals},"uiAmount":${Number(text)},"uiAmountString":${q(text)}}`;
}

export function isTokenProgram(owner: string): boolean {
  return owner === TOKEN_PROGRAM_ADDRESS || owner === TOKEN_2022_PROGRAM_ADDRESS;
}

const programName = (owner: string) => (owner === TOKEN_PROGRAM_ADDRESS ? "spl-token" : "spl-token-2022");
const optionalKey = (d: Uint8Array, view: DataView, tagAt: number) => (view.getUint32(tagAt, true) === 1 ? q(bs58.encode(d.subarray(tagAt + 4, tagAt + 36))) : null);

/** The parsed `data` of a token account or mint; null when it is neither (or its mint is unknown), so the caller falls back to base64. */
export function parsedTokenData(account: AccountRecord, decimalsOf: (mint: string) => number | undefined): string | null {
  if (!isTokenProgram(account.owner)) return null;
  const program = programName(account.owner);
  const is2022 = account.owner === TOKEN_2022_PROGRAM_ADDRESS;
  const d = account.data;
  const view = new DataView(d.buffer, d.byteOffset, d.byteLength);
  if (d.length === MINT_SIZE || (d.length > TOKEN_ACCOUNT_SIZE && d[TOKEN_ACCOUNT_SIZE] === 1)) {
    const mintAuthority = optionalKey(d, view, 0) ?? "null";
    const freezeAuthority = optionalKey(d, view, 46) ?? "null";
    // The local mints' extensions: MintCloseAuthority, and PermanentDelegate on a risky one (tokens.ts).
    const parsed = is2022 ? mintExtensions(d).flatMap(({ type, value }) => MINT_EXTENSION_JSON[type]?.(q(bs58.encode(value))) ?? []) : [];
    const extensions = parsed.length > 0 ? `,"extensions":[${parsed.join(",")}]` : "";
    const info = `{"decimals":${d[44]},"freezeAuthority":${freezeAuthority},"isInitialized":${d[45] === 1},"mintAuthority":${mintAuthority},"supply":"${view.getBigUint64(36, true)}"${extensions}}`;
    return `{"parsed":{"info":${info},"type":"mint"},"program":"${program}","space":${d.length}}`;
  }
  if (!isTokenAccountData(d)) return null;
  const mint = bs58.encode(d.subarray(0, 32));
  const decimals = decimalsOf(mint);
  if (decimals === undefined) return null;
  const reserve = nativeReserveOf(d);
  const delegate = optionalKey(d, view, 72);
  const closeAuthority = optionalKey(d, view, 129);
  const fields = [
    `"isNative":${reserve !== null}`,
    `"mint":${q(mint)}`,
    `"owner":${q(bs58.encode(d.subarray(32, 64)))}`,
    `"state":"${d[108] === 2 ? "frozen" : "initialized"}"`,
    `"tokenAmount":${tokenAmountJson(view.getBigUint64(64, true), decimals)}`,
  ];
  if (delegate) fields.push(`"delegate":${delegate}`, `"delegatedAmount":${tokenAmountJson(view.getBigUint64(121, true), decimals)}`);
  if (reserve !== null) fields.push(`"rentExemptReserve":${tokenAmountJson(reserve, 9)}`);
  if (closeAuthority) fields.push(`"closeAuthority":${closeAuthority}`);
  if (is2022 && d.length > TOKEN_ACCOUNT_SIZE) fields.push(`"extensions":[{"extension":"immutableOwner"}]`);
  return `{"parsed":{"info":{${fields.join(",")}},"type":"account"},"program":"${program}","space":${d.length}}`;
}
