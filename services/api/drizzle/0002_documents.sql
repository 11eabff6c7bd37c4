-- pg_trgm for the lookup tables' trigram indexes below (trusted since PostgreSQL 13; PGlite loads it
-- from @electric-sql/pglite/contrib, see src/db/pglite-extensions.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "document_answers" (
	"user_id" uuid NOT NULL,
	"answer_key" text NOT NULL,
	"file_name" text NOT NULL,
	"file_size" integer NOT NULL,
	"pdf_key" text NOT NULL,
	"pdf_size" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "document_answers_user_id_answer_key_pk" PRIMARY KEY("user_id","answer_key")
);
--> statement-breakpoint
CREATE TABLE "document_conversions" (
	"user_id" uuid NOT NULL,
	"answer_key" text NOT NULL,
	"token" text NOT NULL,
	"status" text NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"source_key" text NOT NULL,
	"file_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "document_conversions_user_id_answer_key_pk" PRIMARY KEY("user_id","answer_key")
);
--> statement-breakpoint
CREATE TABLE "document_uploads" (
	"storage_key" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"answer_key" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lookup_addresses" (
	"id" text PRIMARY KEY NOT NULL,
	"address_line_1" text NOT NULL,
	"address_line_2" text DEFAULT '' NOT NULL,
	"city" text DEFAULT '' NOT NULL,
	"state" text DEFAULT '' NOT NULL,
	"zip" text DEFAULT '' NOT NULL,
	"country" text DEFAULT 'USA' NOT NULL,
	"search_text" text NOT NULL,
	"source" text DEFAULT 'import' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lookup_colleges" (
	"code" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"street" text DEFAULT '' NOT NULL,
	"city" text DEFAULT '' NOT NULL,
	"state" text DEFAULT '' NOT NULL,
	"zip" text DEFAULT '' NOT NULL,
	"country" text DEFAULT 'USA' NOT NULL,
	"search_text" text NOT NULL,
	"source" text DEFAULT 'import' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lookup_high_schools" (
	"code" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"street" text DEFAULT '' NOT NULL,
	"city" text DEFAULT '' NOT NULL,
	"state" text DEFAULT '' NOT NULL,
	"zip" text DEFAULT '' NOT NULL,
	"country" text DEFAULT 'USA' NOT NULL,
	"search_text" text NOT NULL,
	"source" text DEFAULT 'import' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "document_answers" ADD CONSTRAINT "document_answers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_conversions" ADD CONSTRAINT "document_conversions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_uploads" ADD CONSTRAINT "document_uploads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "document_conversions_status_idx" ON "document_conversions" USING btree ("status","updated_at");--> statement-breakpoint
CREATE INDEX "document_uploads_user_idx" ON "document_uploads" USING btree ("user_id","answer_key");--> statement-breakpoint
CREATE INDEX "lookup_addresses_prefix_idx" ON "lookup_addresses" USING btree ("search_text" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "lookup_addresses_trgm_idx" ON "lookup_addresses" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "lookup_colleges_prefix_idx" ON "lookup_colleges" USING btree ("search_text" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "lookup_colleges_trgm_idx" ON "lookup_colleges" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "lookup_high_schools_prefix_idx" ON "lookup_high_schools" USING btree ("search_text" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "lookup_high_schools_trgm_idx" ON "lookup_high_schools" USING gin ("search_text" gin_trgm_ops);