CREATE TABLE "engine_load_generators" (
	"id" text PRIMARY KEY NOT NULL,
	"run_test_id" text NOT NULL,
	"client_id" text NOT NULL,
	"index" integer NOT NULL,
	"count" integer NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"job_id" text NOT NULL,
	"worker_id" text,
	"host" text,
	"ready_at" timestamp with time zone,
	"start_at" timestamp with time zone,
	"heartbeat_at" timestamp with time zone,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"result" jsonb,
	"error" text,
	"closed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "engine_load_generators" ADD CONSTRAINT "engine_load_generators_run_test_id_engine_run_tests_id_fk" FOREIGN KEY ("run_test_id") REFERENCES "public"."engine_run_tests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "engine_load_generators" ADD CONSTRAINT "engine_load_generators_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "engine_load_generators_test_index_key" ON "engine_load_generators" USING btree ("run_test_id","index");--> statement-breakpoint
CREATE INDEX "engine_load_generators_status_idx" ON "engine_load_generators" USING btree ("status");