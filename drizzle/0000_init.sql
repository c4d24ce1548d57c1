CREATE TYPE "public"."offer_side" AS ENUM('sell', 'buy');--> statement-breakpoint
CREATE TYPE "public"."offer_state" AS ENUM('active', 'filled', 'cancelled', 'expired');--> statement-breakpoint
CREATE TABLE "offers" (
	"pda" text PRIMARY KEY NOT NULL,
	"maker" text NOT NULL,
	"token_mint" text NOT NULL,
	"payment_mint" text NOT NULL,
	"side" "offer_side" NOT NULL,
	"nonce" numeric(20, 0) NOT NULL,
	"original_size" numeric(20, 0) NOT NULL,
	"remaining_size" numeric(20, 0) NOT NULL,
	"price_per_token" numeric(20, 0) NOT NULL,
	"price_scale" smallint NOT NULL,
	"price" numeric GENERATED ALWAYS AS (price_per_token / power(10::numeric, price_scale)) STORED,
	"min_fill" numeric(20, 0) NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"state" "offer_state" DEFAULT 'active' NOT NULL,
	"closed_at" timestamp with time zone,
	"created_signature" text,
	"created_slot" bigint,
	"account_slot" bigint,
	"last_slot" bigint NOT NULL,
	"indexed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "fills" (
	"signature" text NOT NULL,
	"ix_index" integer NOT NULL,
	"offer_pda" text NOT NULL,
	"maker" text NOT NULL,
	"taker" text NOT NULL,
	"token_mint" text NOT NULL,
	"payment_mint" text NOT NULL,
	"side" "offer_side" NOT NULL,
	"fill_amount" numeric(20, 0) NOT NULL,
	"payment_amount" numeric(20, 0) NOT NULL,
	"fee_amount" numeric(20, 0) NOT NULL,
	"block_time" timestamp with time zone NOT NULL,
	"slot" bigint NOT NULL,
	CONSTRAINT "fills_signature_ix_index_pk" PRIMARY KEY("signature","ix_index")
);
--> statement-breakpoint
CREATE TABLE "maker_stats" (
	"maker" text PRIMARY KEY NOT NULL,
	"total_offers" bigint DEFAULT 0 NOT NULL,
	"active_offers" bigint DEFAULT 0 NOT NULL,
	"filled_offers" bigint DEFAULT 0 NOT NULL,
	"cancelled_offers" bigint DEFAULT 0 NOT NULL,
	"expired_offers" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "maker_volume" (
	"maker" text NOT NULL,
	"side" "offer_side" NOT NULL,
	"token_mint" text NOT NULL,
	"amount" numeric DEFAULT 0 NOT NULL,
	CONSTRAINT "maker_volume_maker_side_token_mint_pk" PRIMARY KEY("maker","side","token_mint")
);
--> statement-breakpoint
CREATE TABLE "protocol_mint_stats" (
	"payment_mint" text PRIMARY KEY NOT NULL,
	"fees" numeric DEFAULT 0 NOT NULL,
	"volume" numeric DEFAULT 0 NOT NULL,
	"fills" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "protocol_stats" (
	"id" smallint PRIMARY KEY NOT NULL,
	"total_offers" bigint DEFAULT 0 NOT NULL,
	"active_offers" bigint DEFAULT 0 NOT NULL,
	"filled_offers" bigint DEFAULT 0 NOT NULL,
	"cancelled_offers" bigint DEFAULT 0 NOT NULL,
	"expired_offers" bigint DEFAULT 0 NOT NULL,
	"total_fills" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "scanned_transactions" (
	"signature" text PRIMARY KEY NOT NULL,
	"slot" bigint NOT NULL,
	"block_time" timestamp with time zone,
	"failed" boolean DEFAULT false NOT NULL,
	"finalized" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "scanner_checkpoints" (
	"program_id" text PRIMARY KEY NOT NULL,
	"last_signature" text,
	"last_slot" bigint,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "offers_active_created_idx" ON "offers" USING btree ("created_at" DESC NULLS LAST,"pda" DESC NULLS LAST) WHERE state = 'active';--> statement-breakpoint
CREATE INDEX "offers_state_created_idx" ON "offers" USING btree ("state","created_at" DESC NULLS LAST,"pda" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "offers_maker_created_idx" ON "offers" USING btree ("maker","created_at" DESC NULLS LAST,"pda" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "offers_token_created_idx" ON "offers" USING btree ("token_mint","created_at" DESC NULLS LAST,"pda" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "offers_payment_created_idx" ON "offers" USING btree ("payment_mint","created_at" DESC NULLS LAST,"pda" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "offers_active_side_created_idx" ON "offers" USING btree ("side","created_at" DESC NULLS LAST,"pda" DESC NULLS LAST) WHERE state = 'active';--> statement-breakpoint
CREATE INDEX "offers_active_book_idx" ON "offers" USING btree ("token_mint","payment_mint","side","price") WHERE state = 'active';--> statement-breakpoint
CREATE INDEX "offers_active_expiry_idx" ON "offers" USING btree ("expires_at") WHERE state = 'active';--> statement-breakpoint
CREATE INDEX "offers_active_maker_expiry_idx" ON "offers" USING btree ("maker","expires_at") WHERE state = 'active';--> statement-breakpoint
CREATE INDEX "fills_feed_idx" ON "fills" USING btree ("slot" DESC NULLS LAST,"signature" DESC NULLS LAST,"ix_index" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "fills_offer_idx" ON "fills" USING btree ("offer_pda","slot" DESC NULLS LAST,"signature" DESC NULLS LAST,"ix_index" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "fills_taker_idx" ON "fills" USING btree ("taker","slot" DESC NULLS LAST,"signature" DESC NULLS LAST,"ix_index" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "fills_maker_idx" ON "fills" USING btree ("maker","slot" DESC NULLS LAST,"signature" DESC NULLS LAST,"ix_index" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "fills_token_idx" ON "fills" USING btree ("token_mint","slot" DESC NULLS LAST,"signature" DESC NULLS LAST,"ix_index" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "fills_payment_idx" ON "fills" USING btree ("payment_mint","slot" DESC NULLS LAST,"signature" DESC NULLS LAST,"ix_index" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "fills_block_time_idx" ON "fills" USING btree ("block_time");--> statement-breakpoint
CREATE INDEX "scanned_transactions_slot_idx" ON "scanned_transactions" USING btree ("slot");