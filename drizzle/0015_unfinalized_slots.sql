-- The transactions not yet final, by slot: the worker's finality tick asks
-- for the oldest of them (lib/db/writes/transactions.ts unfinalizedUpTo) and
-- the DEXTools horizon for the first (lib/adapters/dextools.ts). Through the
-- slot index both walked past every final transaction first: 273 ms a tick
-- at 5,000,000 transactions, all final. This index holds only the few that
-- are not (the newest slots), so both read a handful of entries.
CREATE INDEX "scanned_transactions_unfinalized_idx" ON "scanned_transactions" USING btree ("slot") WHERE not "scanned_transactions"."finalized";
