CREATE TABLE "client_schedules" (
	"id" text PRIMARY KEY NOT NULL,
	"client_id" text NOT NULL,
	"cron" text NOT NULL,
	"timezone" text NOT NULL,
	"scope_kind" text NOT NULL,
	"scope_name" text,
	"paused" boolean DEFAULT false NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_tick_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_run_id" text,
	"last_run_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "client_schedules" ADD CONSTRAINT "client_schedules_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_schedules" ADD CONSTRAINT "client_schedules_last_run_id_engine_runs_id_fk" FOREIGN KEY ("last_run_id") REFERENCES "public"."engine_runs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "client_schedules_client_idx" ON "client_schedules" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "client_schedules_active_idx" ON "client_schedules" USING btree ("paused");