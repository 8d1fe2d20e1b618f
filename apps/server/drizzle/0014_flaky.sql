ALTER TABLE "test_flaky_marks" ADD COLUMN "source" text DEFAULT 'operator' NOT NULL;--> statement-breakpoint
ALTER TABLE "test_flaky_marks" ADD COLUMN "reason" text;--> statement-breakpoint
ALTER TABLE "test_flaky_marks" ADD COLUMN "detected_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "test_flaky_marks" ADD COLUMN "confirmed_by" text;--> statement-breakpoint
ALTER TABLE "test_flaky_marks" ADD COLUMN "confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "test_flaky_marks" ADD CONSTRAINT "test_flaky_marks_confirmed_by_users_id_fk" FOREIGN KEY ("confirmed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;