CREATE TABLE "manual_settings" (
	"client_id" text PRIMARY KEY NOT NULL,
	"due_hours" integer NOT NULL,
	"working_days_only" boolean NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "manual_work" (
	"id" text PRIMARY KEY NOT NULL,
	"run_test_id" text NOT NULL,
	"client_id" text NOT NULL,
	"platform_index" integer NOT NULL,
	"platform" jsonb NOT NULL,
	"status" text DEFAULT 'waiting' NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"estimate_minutes" integer NOT NULL,
	"claimed_by" text,
	"claimed_by_name" text,
	"claimed_at" timestamp with time zone,
	"claim_expires_at" timestamp with time zone,
	"steps" jsonb NOT NULL,
	"used" jsonb,
	"tester_name" text,
	"started_at" timestamp with time zone,
	"submitted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "manual_settings" ADD CONSTRAINT "manual_settings_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "manual_work" ADD CONSTRAINT "manual_work_run_test_id_engine_run_tests_id_fk" FOREIGN KEY ("run_test_id") REFERENCES "public"."engine_run_tests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "manual_work" ADD CONSTRAINT "manual_work_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "manual_work_run_test_platform_key" ON "manual_work" USING btree ("run_test_id","platform_index");--> statement-breakpoint
CREATE INDEX "manual_work_open_idx" ON "manual_work" USING btree ("status","due_at");