import { connect } from "../lib/db/client";
import { holdBallast } from "./ballast";
import { startBareServer } from "./bare-server";

holdBallast(Number(process.env.BARE_BALLAST_MB ?? 0)); // bench:api-gc's GC_BALLAST_MB; none otherwise
const db = connect(process.env.DATABASE_URL!, { max: Number(process.env.DATABASE_POOL_SIZE ?? 10), applicationName: "bench-bare" });
await startBareServer(db, Number(process.env.PORT));
// An exit rather than the signal's default, so that `node --cpu-prof` writes its profile (bench/api-profile.ts).
process.once("SIGTERM", () => process.exit(0));
process.send?.("ready");
