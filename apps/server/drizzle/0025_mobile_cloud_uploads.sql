CREATE TABLE "mobile_app_uploads" (
	"id" text PRIMARY KEY NOT NULL,
	"client_id" text NOT NULL,
	"storage" text NOT NULL,
	"sha256" text NOT NULL,
	"app_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mobile_device_providers" ADD COLUMN "api_url" text;--> statement-breakpoint
ALTER TABLE "mobile_app_uploads" ADD CONSTRAINT "mobile_app_uploads_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "mobile_app_uploads_key" ON "mobile_app_uploads" USING btree ("client_id","storage","sha256");