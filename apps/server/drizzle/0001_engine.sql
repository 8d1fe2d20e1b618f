CREATE TABLE "engine_attempts" (
	"id" text PRIMARY KEY NOT NULL,
	"run_test_id" text NOT NULL,
	"attempt" integer NOT NULL,
	"worker_id" text NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"error" text,
	"log_path" text,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"heartbeat_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "engine_false_positives" (
	"id" text PRIMARY KEY NOT NULL,
	"client_id" text NOT NULL,
	"rule_id" text NOT NULL,
	"url" text DEFAULT '' NOT NULL,
	"note" text,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "engine_run_tests" (
	"id" text PRIMARY KEY NOT NULL,
	"run_id" text NOT NULL,
	"client_id" text NOT NULL,
	"test_name" text NOT NULL,
	"group_name" text NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"job_id" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer DEFAULT 1 NOT NULL,
	"totals" jsonb,
	"summary" jsonb,
	"duration_ms" integer,
	"error" text,
	"progress" jsonb,
	"report_dir" text,
	"report_formats" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "engine_runs" (
	"id" text PRIMARY KEY NOT NULL,
	"client_id" text NOT NULL,
	"suite_id" text NOT NULL,
	"scope" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"requested_by" text,
	"totals" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "engine_suites" (
	"id" text PRIMARY KEY NOT NULL,
	"client_id" text NOT NULL,
	"version" integer NOT NULL,
	"dir" text NOT NULL,
	"manifest" jsonb NOT NULL,
	"file_count" integer NOT NULL,
	"imported_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "engine_target_origins" (
	"id" text PRIMARY KEY NOT NULL,
	"client_id" text NOT NULL,
	"origin" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "engine_attempts" ADD CONSTRAINT "engine_attempts_run_test_id_engine_run_tests_id_fk" FOREIGN KEY ("run_test_id") REFERENCES "public"."engine_run_tests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "engine_false_positives" ADD CONSTRAINT "engine_false_positives_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "engine_run_tests" ADD CONSTRAINT "engine_run_tests_run_id_engine_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."engine_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "engine_run_tests" ADD CONSTRAINT "engine_run_tests_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "engine_runs" ADD CONSTRAINT "engine_runs_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "engine_runs" ADD CONSTRAINT "engine_runs_suite_id_engine_suites_id_fk" FOREIGN KEY ("suite_id") REFERENCES "public"."engine_suites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "engine_suites" ADD CONSTRAINT "engine_suites_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "engine_target_origins" ADD CONSTRAINT "engine_target_origins_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "engine_attempts_run_test_attempt_key" ON "engine_attempts" USING btree ("run_test_id","attempt");--> statement-breakpoint
CREATE INDEX "engine_attempts_status_heartbeat_idx" ON "engine_attempts" USING btree ("status","heartbeat_at");--> statement-breakpoint
CREATE UNIQUE INDEX "engine_false_positives_key" ON "engine_false_positives" USING btree ("client_id","rule_id","url");--> statement-breakpoint
CREATE INDEX "engine_run_tests_run_idx" ON "engine_run_tests" USING btree ("run_id");--> statement-breakpoint
CREATE INDEX "engine_run_tests_client_test_idx" ON "engine_run_tests" USING btree ("client_id","test_name","finished_at");--> statement-breakpoint
CREATE INDEX "engine_run_tests_client_kind_idx" ON "engine_run_tests" USING btree ("client_id","kind","finished_at");--> statement-breakpoint
CREATE INDEX "engine_run_tests_client_updated_idx" ON "engine_run_tests" USING btree ("client_id","updated_at");--> statement-breakpoint
CREATE INDEX "engine_runs_client_created_idx" ON "engine_runs" USING btree ("client_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "engine_suites_client_version_key" ON "engine_suites" USING btree ("client_id","version");--> statement-breakpoint
CREATE UNIQUE INDEX "engine_target_origins_key" ON "engine_target_origins" USING btree ("client_id","origin");