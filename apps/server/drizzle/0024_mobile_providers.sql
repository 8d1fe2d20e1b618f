CREATE TABLE "mobile_device_providers" (
	"id" text PRIMARY KEY NOT NULL,
	"client_id" text NOT NULL,
	"kind" text NOT NULL,
	"url" text NOT NULL,
	"username" text,
	"access_key" text,
	"access_key_hint" text,
	"access_key_bound_to" text,
	"capabilities" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mobile_device_providers" ADD CONSTRAINT "mobile_device_providers_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "mobile_device_providers_client_key" ON "mobile_device_providers" USING btree ("client_id");