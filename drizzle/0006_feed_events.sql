CREATE TABLE "feed_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "feed_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"signature" text,
	"slot" bigint,
	"offer_pdas" text[] NOT NULL,
	"makers" text[] NOT NULL,
	"token_mints" text[] NOT NULL,
	"payment_mints" text[] NOT NULL,
	"payload" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "feed_events_kind" CHECK ("feed_events"."kind" in ('fill', 'offer', 'revoke'))
);
--> statement-breakpoint
CREATE TABLE "feed_retention" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"pruned_through" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "feed_retention_single_row" CHECK ("feed_retention"."id" = 1)
);
--> statement-breakpoint
CREATE INDEX "feed_events_offer_idx" ON "feed_events" USING gin ("offer_pdas");--> statement-breakpoint
CREATE INDEX "feed_events_maker_idx" ON "feed_events" USING gin ("makers");--> statement-breakpoint
CREATE INDEX "feed_events_token_idx" ON "feed_events" USING gin ("token_mints");--> statement-breakpoint
CREATE INDEX "feed_events_payment_idx" ON "feed_events" USING gin ("payment_mints");--> statement-breakpoint
INSERT INTO "feed_retention" ("id", "pruned_through") VALUES (1, 0);
