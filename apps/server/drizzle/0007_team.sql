CREATE TABLE "bug_attachments" (
	"id" text PRIMARY KEY NOT NULL,
	"bug_id" text NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"content_type" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"path" text NOT NULL,
	"uploaded_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bug_comments" (
	"id" text PRIMARY KEY NOT NULL,
	"bug_id" text NOT NULL,
	"user_id" text,
	"side" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bug_events" (
	"id" text PRIMARY KEY NOT NULL,
	"bug_id" text NOT NULL,
	"from_status" text,
	"to_status" text NOT NULL,
	"action" text NOT NULL,
	"by" text NOT NULL,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bugs" (
	"id" text PRIMARY KEY NOT NULL,
	"client_id" text NOT NULL,
	"number" integer NOT NULL,
	"title" text NOT NULL,
	"severity" text NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"source" text DEFAULT 'manual' NOT NULL,
	"url" text DEFAULT '' NOT NULL,
	"environment" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"steps" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"expected" text DEFAULT '' NOT NULL,
	"actual" text DEFAULT '' NOT NULL,
	"test_name" text,
	"run_id" text,
	"run_test_id" text,
	"rule_id" text,
	"retest_run_id" text,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invitations" (
	"id" text PRIMARY KEY NOT NULL,
	"client_id" text NOT NULL,
	"email" text NOT NULL,
	"team_role" text NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"invited_by" text,
	"accepted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "team_role" text;--> statement-breakpoint
ALTER TABLE "bug_attachments" ADD CONSTRAINT "bug_attachments_bug_id_bugs_id_fk" FOREIGN KEY ("bug_id") REFERENCES "public"."bugs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bug_attachments" ADD CONSTRAINT "bug_attachments_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bug_comments" ADD CONSTRAINT "bug_comments_bug_id_bugs_id_fk" FOREIGN KEY ("bug_id") REFERENCES "public"."bugs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bug_comments" ADD CONSTRAINT "bug_comments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bug_events" ADD CONSTRAINT "bug_events_bug_id_bugs_id_fk" FOREIGN KEY ("bug_id") REFERENCES "public"."bugs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bugs" ADD CONSTRAINT "bugs_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bugs" ADD CONSTRAINT "bugs_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bug_attachments_bug_idx" ON "bug_attachments" USING btree ("bug_id");--> statement-breakpoint
CREATE INDEX "bug_comments_bug_idx" ON "bug_comments" USING btree ("bug_id","created_at");--> statement-breakpoint
CREATE INDEX "bug_events_bug_idx" ON "bug_events" USING btree ("bug_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "bugs_client_number_key" ON "bugs" USING btree ("client_id","number");--> statement-breakpoint
CREATE INDEX "bugs_client_status_idx" ON "bugs" USING btree ("client_id","status","updated_at");--> statement-breakpoint
CREATE INDEX "bugs_retest_run_idx" ON "bugs" USING btree ("retest_run_id");--> statement-breakpoint
CREATE UNIQUE INDEX "invitations_token_hash_key" ON "invitations" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "invitations_client_idx" ON "invitations" USING btree ("client_id","created_at");--> statement-breakpoint
-- Hand-written: every existing client user becomes an owner of their team (before the check needs a role).
UPDATE "users" SET "team_role" = 'owner' WHERE "role" = 'client';--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_team_role_check" CHECK (("users"."role" = 'client') = ("users"."team_role" IS NOT NULL));