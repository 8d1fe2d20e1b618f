CREATE TABLE "payment_presets" (
	"id" text PRIMARY KEY NOT NULL,
	"client_id" text NOT NULL,
	"provider" text NOT NULL,
	"enabled_by" text,
	"enabled_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payment_presets" ADD CONSTRAINT "payment_presets_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_presets_client_provider_key" ON "payment_presets" USING btree ("client_id","provider");