CREATE TABLE "chain_identity" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"genesis_hash" text NOT NULL,
	"program_id" text NOT NULL,
	"treasury" text,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chain_identity_single_row" CHECK ("chain_identity"."id" = 1)
);
