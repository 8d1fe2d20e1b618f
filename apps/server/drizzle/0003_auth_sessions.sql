CREATE TABLE "auth_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "auth_sessions" ADD CONSTRAINT "auth_sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "auth_sessions_user_idx" ON "auth_sessions" USING btree ("user_id");--> statement-breakpoint
-- Every refresh-token family issued before sessions existed becomes a session (revoked if its tokens were), so
-- the portal's refresh keeps working across the upgrade and yields tokens that carry the session's id.
INSERT INTO "auth_sessions" ("id", "user_id", "revoked_at", "created_at")
SELECT "family_id", min("user_id"), max("revoked_at"), min("created_at") FROM "refresh_tokens" GROUP BY "family_id"
ON CONFLICT ("id") DO NOTHING;
