CREATE TABLE "test_flaky_marks" (
	"id" text PRIMARY KEY NOT NULL,
	"client_id" text NOT NULL,
	"test_name" text NOT NULL,
	"note" text,
	"marked_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "test_flaky_marks" ADD CONSTRAINT "test_flaky_marks_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_flaky_marks" ADD CONSTRAINT "test_flaky_marks_marked_by_users_id_fk" FOREIGN KEY ("marked_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "test_flaky_marks_client_test_key" ON "test_flaky_marks" USING btree ("client_id","test_name");--> statement-breakpoint
CREATE INDEX "audit_events_created_idx" ON "audit_events" USING btree ("created_at");