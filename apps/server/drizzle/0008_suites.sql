ALTER TABLE "engine_suites" ADD COLUMN "is_current" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "engine_suites_client_current_key" ON "engine_suites" USING btree ("client_id") WHERE "engine_suites"."is_current";--> statement-breakpoint
UPDATE "engine_suites" SET "is_current" = true WHERE "id" IN (SELECT DISTINCT ON ("client_id") "id" FROM "engine_suites" ORDER BY "client_id", "version" DESC);
