ALTER TABLE "alert_channels" ADD COLUMN "target_sealed" text;--> statement-breakpoint
ALTER TABLE "alert_channels" ADD COLUMN "confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "alert_channels" ADD COLUMN "confirm_token_hash" text;--> statement-breakpoint
ALTER TABLE "alert_channels" ADD COLUMN "confirm_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "alert_channels" ADD COLUMN "confirm_sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "integrations" ADD COLUMN "secret_bound_to" text;--> statement-breakpoint
CREATE UNIQUE INDEX "alert_channels_confirm_token_key" ON "alert_channels" USING btree ("confirm_token_hash");--> statement-breakpoint
-- Decision 0076: a Jira token stays bound to the site and account it was given for (the same string as bindingOf).
UPDATE "integrations" SET "secret_bound_to" = 'jira ' || ("config"->>'siteUrl') || ' ' || lower("config"->>'email') WHERE "kind" = 'jira';
