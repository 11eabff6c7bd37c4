ALTER TABLE "document_answers" ADD COLUMN "page_count" integer;--> statement-breakpoint
ALTER TABLE "document_answers" ADD COLUMN "thumbnail_key" text;