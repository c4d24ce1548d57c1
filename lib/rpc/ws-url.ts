/** web3.js's own pattern: scheme, host (an IPv6 literal in brackets too), optional port, the rest. */
const URL_RE = /^[^:]+:\/\/([^:[]+|\[[^\]]+\])(:\d+)?(.*)/i;

/**
 * The PubSub WebSocket URL of a Solana JSON-RPC endpoint, derived exactly as
 * @solana/web3.js's Connection derives it: https becomes wss (else ws), and an
 * explicit port moves up by one (a validator serves 8899 and its WebSocket on
 * 8900); without a port, the WebSocket shares the RPC's host and path.
 */
export function solanaWebsocketUrl(rpcUrl: string): string {
  const match = URL_RE.exec(rpcUrl);
  if (!match) throw new TypeError(`not an RPC URL: ${rpcUrl}`);
  const [, host, port, rest] = match;
  const protocol = rpcUrl.startsWith("https:") ? "wss:" : "ws:";
  return `${protocol}//${host}${port ? `:${Number(port.slice(1)) + 1}` : ""}${rest ?? ""}`;
}
