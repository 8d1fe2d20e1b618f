ALTER TABLE "engine_runs" ADD COLUMN "trigger" text DEFAULT 'api' NOT NULL;--> statement-breakpoint
CREATE INDEX "engine_runs_client_status_created_idx" ON "engine_runs" USING btree ("client_id","status","created_at");--> statement-breakpoint
-- Until now requested_by held how the caller authenticated ('bearer', 'api-key', 'operator'), not who it was:
-- that becomes the trigger, and requested_by is left for a user's id.
UPDATE "engine_runs" SET "trigger" = CASE "requested_by" WHEN 'bearer' THEN 'portal' WHEN 'operator' THEN 'operator' ELSE 'api' END;--> statement-breakpoint
UPDATE "engine_runs" SET "requested_by" = NULL WHERE "requested_by" IN ('bearer', 'api-key', 'operator', 'operator-token');
