import { checkCsvPage, csvResponse, wantsCsv } from "@/web/http/csv";
import { address, parsePathParam, parseQuery } from "@/web/http/params";
import { checkPage, walletTradeQuery } from "@/web/http/query-schemas";
import { CACHE } from "@/web/http/response";
import { exportWalletTrades, listWalletTrades } from "@/lib/db/reads/wallet-trades";
import { database, route } from "@/web/services";

export const dynamic = "force-dynamic";

const walletParam = address("address");

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = route("/v1/wallets/[address]/trades", async (request, url, params) => {
  const wallet = parsePathParam("address", String(params.address), walletParam);
  const query = parseQuery(url, walletTradeQuery);
  checkPage(query);
  if (wantsCsv(request, query.format)) {
    checkCsvPage(url);
    return csvResponse(request, `trades-${wallet}.csv`, exportWalletTrades(database(), { ...query, address: wallet }));
  }
  return { body: { text: await listWalletTrades(database(), { ...query, address: wallet }) }, cache: CACHE.list };
});
