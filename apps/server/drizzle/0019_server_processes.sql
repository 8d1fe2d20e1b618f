CREATE TABLE "server_processes" (
	"id" text PRIMARY KEY NOT NULL,
	"role" text NOT NULL,
	"host" text NOT NULL,
	"pid" integer NOT NULL,
	"version" text NOT NULL,
	"workers" integer NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "server_processes_last_seen_idx" ON "server_processes" USING btree ("last_seen_at");--> statement-breakpoint
CREATE INDEX "engine_run_tests_unfinished_idx" ON "engine_run_tests" USING btree ("status") WHERE "engine_run_tests"."status" in ('queued', 'running');