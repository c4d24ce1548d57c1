import { connect } from "../lib/db/client";
import { startBareServer } from "./bare-server";

// Preloaded into the web by bench:api-gc (GC_BARE_IN_WEB=1, bundled first):
// the bare server, on BARE_IN_WEB_PORT, inside the web's own process. Its
// requests run the bare server's code with the web's heap, collector and
// threads around them, so that the web's extra CPU can be split between its
// request path (the web's /v1 route against this) and the process it lives in
// (this against the bare server alone). Not awaited: on Node 24
// scripts/web.mjs may replace the process before it listens.
void startBareServer(connect(process.env.DATABASE_URL!, { max: 10, applicationName: "bench-bare-in-web" }), Number(process.env.BARE_IN_WEB_PORT));
