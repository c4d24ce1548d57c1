import { address, parsePathParam, parseQuery } from "@/web/http/params";
import { checkPage, walletTradeQuery } from "@/web/http/query-schemas";
import { CACHE } from "@/web/http/response";
import { listWalletTrades } from "@/lib/db/reads/wallet-trades";
import { database, route } from "@/web/services";

export const dynamic = "force-dynamic";

const walletParam = address("address");

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = route("/v1/wallets/[address]/trades", async (_request, url, params) => {
  const wallet = parsePathParam("address", String(params.address), walletParam);
  const query = parseQuery(url, walletTradeQuery);
  checkPage(query);
  return { body: { text: await listWalletTrades(database(), { ...query, address: wallet }) }, cache: CACHE.list };
});
