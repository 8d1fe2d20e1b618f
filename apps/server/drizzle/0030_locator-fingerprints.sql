CREATE TABLE "healing_proposals" (
	"id" text PRIMARY KEY NOT NULL,
	"client_id" text NOT NULL,
	"run_id" text NOT NULL,
	"run_test_id" text NOT NULL,
	"from_suite_id" text NOT NULL,
	"proposed_suite_id" text,
	"heals" jsonb NOT NULL,
	"status" text DEFAULT 'proposed' NOT NULL,
	"decided_by" text,
	"decided_by_name" text,
	"decided_at" timestamp with time zone,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "locator_fingerprints" (
	"id" text PRIMARY KEY NOT NULL,
	"client_id" text NOT NULL,
	"suite_id" text NOT NULL,
	"test_name" text NOT NULL,
	"site_key" text NOT NULL,
	"site" jsonb NOT NULL,
	"fingerprint" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "healing_proposals" ADD CONSTRAINT "healing_proposals_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "healing_proposals" ADD CONSTRAINT "healing_proposals_from_suite_id_engine_suites_id_fk" FOREIGN KEY ("from_suite_id") REFERENCES "public"."engine_suites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "healing_proposals" ADD CONSTRAINT "healing_proposals_proposed_suite_id_engine_suites_id_fk" FOREIGN KEY ("proposed_suite_id") REFERENCES "public"."engine_suites"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "healing_proposals" ADD CONSTRAINT "healing_proposals_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "locator_fingerprints" ADD CONSTRAINT "locator_fingerprints_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "locator_fingerprints" ADD CONSTRAINT "locator_fingerprints_suite_id_engine_suites_id_fk" FOREIGN KEY ("suite_id") REFERENCES "public"."engine_suites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "healing_proposals_run_key" ON "healing_proposals" USING btree ("run_id");--> statement-breakpoint
CREATE INDEX "healing_proposals_client_created_idx" ON "healing_proposals" USING btree ("client_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "locator_fingerprints_suite_test_site_key" ON "locator_fingerprints" USING btree ("suite_id","test_name","site_key");--> statement-breakpoint
CREATE INDEX "locator_fingerprints_client_updated_idx" ON "locator_fingerprints" USING btree ("client_id","updated_at");