CREATE TABLE "cloud_cell_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"client_id" text NOT NULL,
	"run_id" text NOT NULL,
	"attempt_id" text NOT NULL,
	"cell_index" integer NOT NULL,
	"cell" text NOT NULL,
	"provider" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "mobile_device_providers" ADD COLUMN "testgrid_project_arn" text;--> statement-breakpoint
ALTER TABLE "mobile_device_providers" ADD COLUMN "cloud_minutes_per_run" integer;--> statement-breakpoint
ALTER TABLE "cloud_cell_sessions" ADD CONSTRAINT "cloud_cell_sessions_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cloud_cell_sessions" ADD CONSTRAINT "cloud_cell_sessions_run_id_engine_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."engine_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cloud_cell_sessions" ADD CONSTRAINT "cloud_cell_sessions_attempt_id_engine_attempts_id_fk" FOREIGN KEY ("attempt_id") REFERENCES "public"."engine_attempts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cloud_cell_sessions_run_idx" ON "cloud_cell_sessions" USING btree ("run_id");--> statement-breakpoint
CREATE INDEX "cloud_cell_sessions_attempt_idx" ON "cloud_cell_sessions" USING btree ("attempt_id");