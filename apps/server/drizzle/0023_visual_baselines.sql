CREATE TABLE "visual_baselines" (
	"id" text PRIMARY KEY NOT NULL,
	"client_id" text NOT NULL,
	"key" text NOT NULL,
	"test_name" text NOT NULL,
	"page" text NOT NULL,
	"engine" text NOT NULL,
	"device" text NOT NULL,
	"version" integer NOT NULL,
	"sha256" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"artifact_key" text NOT NULL,
	"run_id" text,
	"run_test_id" text,
	"attempt" integer,
	"candidate_id" text,
	"approved_by" text,
	"approved_by_name" text NOT NULL,
	"approved_at" timestamp with time zone DEFAULT now() NOT NULL,
	"is_current" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "visual_candidates" (
	"id" text PRIMARY KEY NOT NULL,
	"client_id" text NOT NULL,
	"run_id" text NOT NULL,
	"run_test_id" text NOT NULL,
	"attempt" integer NOT NULL,
	"key" text NOT NULL,
	"test_name" text NOT NULL,
	"page" text NOT NULL,
	"engine" text NOT NULL,
	"device" text NOT NULL,
	"shot_status" text NOT NULL,
	"sha256" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"artifact_key" text NOT NULL,
	"compared_with" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"decided_by" text,
	"decided_by_name" text,
	"decided_at" timestamp with time zone,
	"note" text,
	"bug_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "visual_baselines" ADD CONSTRAINT "visual_baselines_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visual_baselines" ADD CONSTRAINT "visual_baselines_approved_by_users_id_fk" FOREIGN KEY ("approved_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visual_candidates" ADD CONSTRAINT "visual_candidates_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visual_candidates" ADD CONSTRAINT "visual_candidates_run_id_engine_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."engine_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visual_candidates" ADD CONSTRAINT "visual_candidates_run_test_id_engine_run_tests_id_fk" FOREIGN KEY ("run_test_id") REFERENCES "public"."engine_run_tests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visual_candidates" ADD CONSTRAINT "visual_candidates_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visual_candidates" ADD CONSTRAINT "visual_candidates_bug_id_bugs_id_fk" FOREIGN KEY ("bug_id") REFERENCES "public"."bugs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "visual_baselines_client_key_version_key" ON "visual_baselines" USING btree ("client_id","key","version");--> statement-breakpoint
CREATE UNIQUE INDEX "visual_baselines_client_key_current_key" ON "visual_baselines" USING btree ("client_id","key") WHERE "visual_baselines"."is_current";--> statement-breakpoint
CREATE INDEX "visual_baselines_client_test_idx" ON "visual_baselines" USING btree ("client_id","test_name");--> statement-breakpoint
CREATE UNIQUE INDEX "visual_candidates_run_test_key_key" ON "visual_candidates" USING btree ("run_test_id","key");--> statement-breakpoint
CREATE INDEX "visual_candidates_run_idx" ON "visual_candidates" USING btree ("run_id");--> statement-breakpoint
CREATE INDEX "visual_candidates_client_key_idx" ON "visual_candidates" USING btree ("client_id","key");