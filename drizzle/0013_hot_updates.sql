-- Room on each page for an updated row's new version, so an update that
-- changes no indexed column stays a HOT update (no new entry in any index):
-- a fill lowers its offer's remaining_size, a close sets closed_at, and each
-- batch's fills move their candles' figures. With the default (100) pages
-- are packed full as rows are inserted, and such updates went to another
-- page, with a new entry in each of the offers' 15 indexes: on a backfill of
-- the bench ledger, 22% of offers' updates and 18% of candles' were HOT;
-- with 70, 38% and 88% (the offers' other updates change their state, which
-- partial indexes read, and can never be HOT). Pages already written keep
-- their packing until rewritten (VACUUM FULL, CLUSTER); new ones get the room.
ALTER TABLE "offers" SET (fillfactor = 70);--> statement-breakpoint
ALTER TABLE "candles" SET (fillfactor = 70);
