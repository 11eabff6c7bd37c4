ALTER TABLE "document_uploads" ADD COLUMN "uploaded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "document_uploads" ADD COLUMN "uploaded_bytes" integer;--> statement-breakpoint
ALTER TABLE "document_uploads" ADD COLUMN "consumed_at" timestamp with time zone;