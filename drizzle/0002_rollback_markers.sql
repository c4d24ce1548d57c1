ALTER TABLE "offers" ADD COLUMN "ended_signature" text;--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "closed_signature" text;--> statement-breakpoint
ALTER TABLE "scanned_transactions" ADD COLUMN "offer_pdas" text[] DEFAULT '{}' NOT NULL;